/** A small decorative dot in a group's colour (the name always accompanies it as text). */
export function ColorDot({ color, size = 12 }: { color: string; size?: number }) {
  return (
    <span
      aria-hidden="true"
      className="inline-block shrink-0 rounded-full ring-1 ring-black/20 dark:ring-white/30"
      style={{ backgroundColor: color, width: size, height: size }}
    />
  );
}
