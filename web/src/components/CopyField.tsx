import { useEffect, useId, useRef } from 'react';
import { Button } from '#web/components/Button';
import { copyText } from '#web/lib/copy-text';

interface CopyFieldProps {
  label: string;
  value: string;
  /** The button's text ("Copy token"). */
  copyLabel: string;
  /** Told whether the copy worked; when it did not, the text is selected to copy by hand. */
  onCopy: (copied: boolean) => void;
  /** Focus (and select) the value when it appears: it was just made. */
  focusOnMount?: boolean;
}

/** A read-only value (a token, an address) with a button that copies it. */
export function CopyField({
  label,
  value,
  copyLabel,
  onCopy,
  focusOnMount = false,
}: CopyFieldProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusOnMount) inputRef.current?.focus();
    // Only when it appears, not on every change of the flag.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const copy = async () => {
    const copied = await copyText(value);
    if (!copied) {
      inputRef.current?.focus();
      inputRef.current?.select();
    }
    onCopy(copied);
  };

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          ref={inputRef}
          readOnly
          value={value}
          // A long value (an address, the bookmarklet) is cut by the field: hovering shows it
          // whole, and the button copies it whole.
          title={value}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          className={
            'block w-full min-w-0 rounded-md border border-slate-500 bg-slate-50 px-3 py-2 ' +
            'font-mono text-sm text-slate-900 dark:bg-slate-950 dark:text-slate-100'
          }
        />
        <Button variant="secondary" className="shrink-0" onClick={() => void copy()}>
          {copyLabel}
        </Button>
      </div>
    </div>
  );
}
