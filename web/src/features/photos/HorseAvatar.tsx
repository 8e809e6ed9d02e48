import { HorsePhoto } from './HorsePhoto.tsx';

/**
 * The rounded square a horse's photo (or its placeholder) sits in. The whole class strings are
 * written out so Tailwind finds them: 44 px in the list, 64 px in the form, 80 px in the details;
 * the placeholder icon is sized by the box's font size.
 *
 * A border radius, not daisyUI's `mask-squircle`: that mask is an SVG image, and the browser
 * makes a whole SVG document for it the first time a page styles one, inside the task that
 * shows a phone's first rows, then paints the mask for each avatar.
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
      <div className={`rounded-[25%] bg-base-300 text-base-content/60 ${SIZES[size]}`}>
        <HorsePhoto photoUrl={photoUrl} name={name} />
      </div>
    </div>
  );
}
