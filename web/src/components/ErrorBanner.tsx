import { Trans, useLingui } from '@lingui/react/macro';
import { cn } from '#web/lib/cn';
import { Button } from './Button';
import { DismissButton } from './DismissButton';

interface ErrorBannerProps {
  message: string | null;
  onDismiss?: () => void;
  /** Shows a Retry button (for failed loads). */
  onRetry?: () => void;
  className?: string;
}

/** A red, announced message; dismissible when given onDismiss. Renders nothing without one. */
export function ErrorBanner({ message, onDismiss, onRetry, className }: ErrorBannerProps) {
  const { t } = useLingui();
  if (!message) return null;
  return (
    <div
      role="alert"
      className={cn(
        'flex items-start gap-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm',
        'text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200',
        className,
      )}
    >
      <p className="min-w-0 flex-1 break-words">{message}</p>
      {onRetry && (
        <Button variant="link" size="none" onClick={onRetry} className="shrink-0 rounded">
          <Trans>Retry</Trans>
        </Button>
      )}
      {onDismiss && <DismissButton label={t`Dismiss message`} onClick={onDismiss} />}
    </div>
  );
}
