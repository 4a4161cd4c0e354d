import { useLingui } from '@lingui/react/macro';
import { Button } from '#web/components/Button';
import { setThemePreference, toggleTheme, useTheme } from '../hooks/use-theme';

/**
 * A switch that is on keeps a darker background, hovered or not: `enabled:` gives it the same
 * weight as the ghost variant's `enabled:hover:` background, and it comes later in the CSS.
 */
const pressedClass = 'enabled:aria-pressed:bg-slate-200 dark:enabled:aria-pressed:bg-slate-700';

function MoonIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none">
      <path
        d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5Z"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function SunIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none">
      <circle cx="12" cy="12" r="4" stroke="currentColor" strokeWidth="2" />
      <path
        d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

function MonitorIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none">
      <rect x="3" y="4" width="18" height="12" rx="2" stroke="currentColor" strokeWidth="2" />
      <path d="M8 20h8M12 16v4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The theme toggle (light ↔ dark, saved) and a "follow the system" switch that removes the
 * saved choice (docs/product.md, Theme).
 */
export function ThemeToggle() {
  const { preference, resolved } = useTheme();
  const dark = resolved === 'dark';
  const { t } = useLingui();
  return (
    <div role="group" aria-label={t`Theme`} className="flex items-center gap-1">
      <Button
        variant="ghost"
        size="icon"
        className={pressedClass}
        aria-pressed={dark}
        aria-label={t`Dark theme`}
        title={dark ? t`Switch to light theme` : t`Switch to dark theme`}
        onClick={toggleTheme}
      >
        {dark ? <MoonIcon /> : <SunIcon />}
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className={pressedClass}
        aria-pressed={preference === 'system'}
        aria-label={t`Follow system theme`}
        title={t`Follow system theme`}
        onClick={() => setThemePreference('system')}
      >
        <MonitorIcon />
      </Button>
    </div>
  );
}
