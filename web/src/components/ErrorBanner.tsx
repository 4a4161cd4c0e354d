interface ErrorBannerProps {
  message: string | null;
  onDismiss?: () => void;
  /** Shows a Retry button (for failed loads). */
  onRetry?: () => void;
  className?: string;
}

/** A red, announced message; dismissible when given onDismiss. Renders nothing without one. */
export function ErrorBanner({ message, onDismiss, onRetry, className = '' }: ErrorBannerProps) {
  if (!message) return null;
  return (
    <div
      role="alert"
      className={
        'flex items-start gap-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm ' +
        'text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200 ' +
        className
      }
    >
      <p className="min-w-0 flex-1 break-words">{message}</p>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="shrink-0 rounded font-semibold underline underline-offset-2"
        >
          Retry
        </button>
      )}
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss message"
          className="-my-1 shrink-0 rounded px-2 py-1 text-lg leading-none"
        >
          <span aria-hidden="true">×</span>
        </button>
      )}
    </div>
  );
}
