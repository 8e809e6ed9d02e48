// What zodFirst (zod-first.ts) imports: one name of zod's, so the import brings zod's chunk
// as the bundle has it (what the app uses of zod) and not every export of zod's.
export { config } from 'zod';
