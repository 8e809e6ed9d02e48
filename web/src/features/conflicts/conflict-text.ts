import type { Conflict, ConflictSide } from '../../../../shared/index.ts';
import { fieldLabel, valueText, type ReferenceNames } from '../history/history-text.ts';

/** Who wrote one side, as the History names people ([T3]). */
export const sideName = (side: Pick<ConflictSide, 'userId' | 'userName'>): string =>
  side.userId === null ? 'Ranch server' : (side.userName ?? 'A removed user');

/** One side's value as the screens show it ('empty' for none). */
export const sideValue = (conflict: Conflict, side: ConflictSide, names: ReferenceNames): string =>
  valueText(conflict.collection, conflict.field, side.value, names);

/** Both sides, the one the server received first first. */
const inOrder = (conflict: Conflict): [ConflictSide, ConflictSide] =>
  conflict.other.serverTime < conflict.kept.serverTime ? [conflict.other, conflict.kept] : [conflict.kept, conflict.other];

/**
 * [T6] "Price was changed at the same time by Alice Smith ($9,500) and Bob Jones ($9,200)."
 * One person on two devices: "… at the same time on two devices by Alice Smith ($9,500 and $9,200)."
 */
export function conflictHeadline(conflict: Conflict, names: ReferenceNames): string {
  const label = fieldLabel(conflict.collection, conflict.field);
  const [first, second] = inOrder(conflict);
  const value = (side: ConflictSide) => sideValue(conflict, side, names);
  if (first.userId !== null && first.userId === second.userId) {
    return `${label} was changed at the same time on two devices by ${sideName(first)} (${value(first)} and ${value(second)}).`;
  }
  return `${label} was changed at the same time by ${sideName(first)} (${value(first)}) and ${sideName(second)} (${value(second)}).`;
}

/** What a person can do about one conflict: the line under the headline and one button per value to write. */
export type ConflictChoices = {
  /** "Kept: Bay." (not for money: nothing is settled until a person says) or "Which price is right?". */
  prompt: string;
  /** Shown to a person who cannot write (a Viewer) instead of the buttons; null: nothing to add. */
  viewerNote: string | null;
  choices: { label: string; value: unknown }[];
};

/** Which money value a person can say is right: a question, never "kept" ([T6] always ask). */
export const MONEY_QUESTION = (label: string) => `Which ${label.toLowerCase()} is right?`;
export const MONEY_VIEWER_NOTE = 'Someone who can edit will choose.';

export function conflictChoices(conflict: Conflict, names: ReferenceNames): ConflictChoices {
  const label = fieldLabel(conflict.collection, conflict.field);
  const kept = sideValue(conflict, conflict.kept, names);
  const other = sideValue(conflict, conflict.other, names);
  if (conflict.money) {
    const choices = inOrder(conflict).map((side) => ({ label: sideValue(conflict, side, names), value: side.value }));
    return {
      prompt: MONEY_QUESTION(label),
      viewerNote: MONEY_VIEWER_NOTE,
      // Two people may have typed one amount two ways ("9500", "9,500"): one button is enough.
      choices: choices.filter((choice, index) => choices.findIndex((first) => first.label === choice.label) === index),
    };
  }
  return {
    prompt: `Kept: ${kept}.`,
    viewerNote: null,
    choices: [
      { label: `Put back ${other}`, value: conflict.other.value },
      { label: `Keep ${kept}`, value: conflict.kept.value },
    ],
  };
}

/**
 * [T8] Who changed the field, for the bell: 'Alice Smith and Bob Jones changed it at the same
 * time', or '… on two devices' for one person.
 */
export function conflictPeople(conflict: Conflict): string {
  const [first, second] = inOrder(conflict);
  if (first.userId !== null && first.userId === second.userId) return `${sideName(first)} changed it at the same time on two devices`;
  return `${sideName(first)} and ${sideName(second)} changed it at the same time`;
}
