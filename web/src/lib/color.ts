import { GROUP_COLORS, type GroupColor } from '@tally/contract/constants';

const COLOR_NAMES: Record<GroupColor, string> = {
  '#3B82F6': 'Blue',
  '#EF4444': 'Red',
  '#10B981': 'Green',
  '#F59E0B': 'Amber',
  '#8B5CF6': 'Violet',
  '#EC4899': 'Pink',
  '#06B6D4': 'Cyan',
  '#84CC16': 'Lime',
};

/** A human name for a swatch, for labels; unknown colours are named by their hex value. */
export function colorName(color: string): string {
  const swatch = GROUP_COLORS.find((known) => known.toLowerCase() === color.toLowerCase());
  return swatch ? COLOR_NAMES[swatch] : color;
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function luminance(hex: string): number | null {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) return null;
  const n = parseInt(match[1], 16);
  return (
    0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255)
  );
}

/** Near-black or white, whichever contrasts more with the background (every swatch → AA). */
export function readableTextColor(background: string): string {
  const l = luminance(background);
  if (l === null) return '#000000';
  const onBlack = (l + 0.05) / 0.05;
  const onWhite = 1.05 / (l + 0.05);
  return onBlack >= onWhite ? '#0b0f19' : '#ffffff';
}
