import type { KeptRanchDetails } from './ranch-details.ts';

/** What a receipt says when the ranch has no name yet ([P7]). */
export const UNNAMED_RANCH = 'Ranch';

/**
 * [L9] [P7] The head of a receipt: the ranch's logo, name and address (its lines, then the
 * phone and e-mail), as this device last read them.
 */
export function RanchLetterhead({ ranch }: { ranch: KeptRanchDetails }) {
  const name = ranch.name ?? UNNAMED_RANCH;
  const logo = ranch.logoData ?? ranch.logoUrl;
  const lines = [...(ranch.address?.split('\n') ?? []), ranch.phone, ranch.email].filter((line): line is string => !!line);
  return (
    <div className="flex items-start gap-3" data-testid="ranch-letterhead">
      {logo && <img src={logo} alt={`${name} logo`} className="size-16 shrink-0 object-contain" />}
      <div className="min-w-0">
        <p className="text-lg font-bold break-words">{name}</p>
        {lines.map((line, index) => (
          // Address lines may repeat ("Unit 2" twice is the ranch's to write): the place is the key.
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines never move
          <p key={index} className="text-sm break-words text-base-content/70">
            {line}
          </p>
        ))}
      </div>
    </div>
  );
}
