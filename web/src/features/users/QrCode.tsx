import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * [U17] A QR code of `text` as SVG elements (no markup strings, no script): one path of the
 * dark modules, with the quiet zone around them, for a phone's camera to read off the screen.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => {
    const { data, size } = encode(text, { ecc: 'M', border: 4 });
    let d = '';
    data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      });
    });
    return { size, path: d };
  }, [text]);
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} className="h-56 w-56 bg-white" shapeRendering="crispEdges">
      <path d={path} fill="#000" />
    </svg>
  );
}
