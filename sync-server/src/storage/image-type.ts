/** The image type of some bytes, read from their magic numbers: shared with the device's photo field. */
export { detectImageType, type ImageType } from '../../../shared/image-type.ts';
