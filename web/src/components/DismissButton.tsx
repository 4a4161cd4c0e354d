import { cn } from '#web/lib/cn';
import { Button } from './Button';

interface DismissButtonProps {
  /** What the button does, for screen readers ("Dismiss message"); the × itself is hidden. */
  label: string;
  onClick: () => void;
  className?: string;
}

/** The × that closes a message, in the message's own text colour. */
export function DismissButton({ label, onClick, className }: DismissButtonProps) {
  return (
    <Button
      variant="bare"
      size="none"
      aria-label={label}
      onClick={onClick}
      className={cn('-my-1 shrink-0 rounded px-2 py-1 text-lg leading-none font-normal', className)}
    >
      <span aria-hidden="true">×</span>
    </Button>
  );
}
