import { HorsePhoto } from './HorsePhoto.tsx';

/**
 * The squircle a horse's photo (or its placeholder) sits in. The whole class strings are
 * written out so Tailwind finds them: 44 px in the list, 64 px in the form, 80 px in the details;
 * the placeholder icon is sized by the box's font size.
 */
const SIZES = {
  list: 'w-11',
  form: 'w-16 text-2xl',
  details: 'w-20 text-3xl',
} as const;

type HorseAvatarProps = { photoUrl: string | null; name: string; size: keyof typeof SIZES };

export function HorseAvatar({ photoUrl, name, size }: HorseAvatarProps) {
  return (
    <div className="avatar avatar-placeholder">
      <div className={`mask mask-squircle bg-base-300 text-base-content/60 ${SIZES[size]}`}>
        <HorsePhoto photoUrl={photoUrl} name={name} />
      </div>
    </div>
  );
}
