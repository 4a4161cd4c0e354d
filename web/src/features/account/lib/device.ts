import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
/** The browsers worth naming, most specific first (Edge and Opera also say "Chrome"). */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bHeadlessChrome\//, 'Headless Chrome'],
  [/\bChromium\//, 'Chromium'],
  [/\bChrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
  [/\bPlaywright\//, 'Playwright'],
  [/\bnode\b|\bundici\b/i, 'Node.js'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A session's device in plain words from the browser's User-Agent, e.g. "Firefox on Windows";
 * "Unknown device" when there is none.
 */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent?.trim()) return i18n._(msg`Unknown device`);
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return i18n._(msg`${browser} on ${system}`);
  if (browser) return browser;
  if (system) return i18n._(msg`A browser on ${system}`);
  return i18n._(msg`Unknown device`);
}
