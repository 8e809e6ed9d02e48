import { z } from 'zod';
import { isPastOrToday } from '../birth-date.ts';
import { MAX_NOTES_LENGTH } from '../constants.ts';
import { isPhotoReference, PHOTO_REFERENCE_MESSAGE } from './photo.ts';
import { blankToNull, optionalDate, optionalMoney, optionalRef, optionalText, requiredName, requiredRef } from './common.ts';

/**
 * One schema serves the horse form (react-hook-form resolver), POST/PUT /api/horses and the
 * server's check of synced horses. Messages are those of [H5].
 */
export const horseInput = z.object({
  name: requiredName('Name is required'),
  breedId: requiredRef('Breed is required'),
  colorId: requiredRef('Color is required'),
  genderId: requiredRef('Gender is required'),
  statusId: optionalRef.default(null),
  ownerId: optionalRef.default(null),
  // [H10]: never after today (the latest date on Earth, so device and server agree).
  birthdate: optionalDate.refine((value) => value === null || isPastOrToday(value), 'Birth date cannot be in the future').default(null),
  ageYears: z
    .preprocess((value) => {
      const blank = blankToNull(value);
      return typeof blank === 'string' ? Number(blank) : blank;
    }, z
      .number({ error: 'Age must be a whole number' })
      .int('Age must be a whole number')
      .min(0, 'Age cannot be negative')
      .max(60, 'Age must be at most 60')
      .nullable())
    .default(null),
  priceUsd: optionalMoney.default(null),
  photoUrl: optionalText(2048)
    .refine((value) => value === null || isPhotoReference(value), PHOTO_REFERENCE_MESSAGE)
    .default(null),
  notes: optionalText(MAX_NOTES_LENGTH).default(null),
});

export type HorseInput = z.input<typeof horseInput>;
export type HorseFields = z.output<typeof horseInput>;
export type Horse = HorseFields & { id: string };
