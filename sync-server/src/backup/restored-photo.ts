import { createHash } from 'node:crypto';
import { isEntityId } from '../../../shared/index.ts';
import { detectImageType } from '../storage/image-type.ts';

type PhotoRow = { id?: unknown; owner_id?: unknown; size?: unknown; sha256?: unknown; bytes?: unknown; content_type?: unknown };

/**
 * A photo row of a backup, checked before it is restored (N4): its bytes must be an image of
 * a type uploads accept (read from the bytes with storage/image-type.ts, as at upload), and
 * match the row's size and SHA-256. The type written is the one read from the bytes, never
 * the file's: a doctored backup cannot make the server answer a "photo" as a page or script.
 */
export function checkedPhotoRow(json: string): { json: string } | { refused: string } {
  let row: PhotoRow;
  try {
    row = JSON.parse(json) as PhotoRow;
  } catch {
    return { refused: 'Left out a photo row that is not JSON' };
  }
  // Printed to the operator's terminal: an id only, never the file's text.
  if (typeof row.id !== 'string' || !isEntityId(row.id)) return { refused: 'Left out a photo row without a valid id' };
  const id = row.id;
  if (typeof row.owner_id !== 'string' || !isEntityId(row.owner_id)) {
    return { refused: `Left out photo ${id}: its owner is not a valid id` };
  }
  if (typeof row.bytes !== 'string' || row.bytes.length % 2 !== 0 || !/^\\x[0-9a-f]*$/i.test(row.bytes)) {
    return { refused: `Left out photo ${id}: it has no bytes` };
  }
  const bytes = Buffer.from(row.bytes.slice(2), 'hex');
  const type = detectImageType(bytes);
  if (!type) return { refused: `Left out photo ${id}: its bytes are not a JPEG, PNG, GIF, WebP or HEIC/HEIF image` };
  if (row.size !== bytes.byteLength) return { refused: `Left out photo ${id}: its size does not match its bytes` };
  if (row.sha256 !== createHash('sha256').update(bytes).digest('hex')) {
    return { refused: `Left out photo ${id}: its SHA-256 does not match its bytes` };
  }
  return { json: JSON.stringify({ ...row, content_type: type }) };
}
