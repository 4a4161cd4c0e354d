import { useId, type ComponentProps, type ReactNode } from 'react';

/** 3:1 borders, AA text and a visible focus (index.css) in both themes; dimmed when disabled. */
const labelClass = 'block text-sm font-medium text-slate-800 dark:text-slate-200';
const inputClass =
  'mt-1 block w-full rounded-md border border-slate-500 bg-white px-3 py-2 text-base ' +
  'text-slate-900 placeholder:text-slate-500 dark:bg-slate-950 dark:text-slate-100 ' +
  'dark:placeholder:text-slate-400 disabled:cursor-not-allowed disabled:opacity-60';

type FieldProps<Element extends 'input' | 'textarea' | 'select'> = Omit<
  ComponentProps<Element>,
  'className'
> & {
  label: ReactNode;
};

/** The id a field's label points at: the given one, or a unique one. */
function useFieldId(id: string | undefined): string {
  const generatedId = useId();
  return id ?? generatedId;
}

/** A control with its label above it. */
function Field({ label, id, children }: { label: ReactNode; id: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** The sentence under a field that refuses what was typed. */
function FieldError({ id, error }: { id: string; error?: string | null }) {
  if (!error) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700 dark:text-red-300">
      {error}
    </p>
  );
}

/**
 * A labelled input in the app's style. `error`: the sentence that refuses what was typed, shown
 * under the field and read with it (docs/product.md, Errors).
 */
export function TextField({
  label,
  id,
  error,
  ...input
}: FieldProps<'input'> & { error?: string | null }) {
  const inputId = useFieldId(id);
  const errorId = `${inputId}-error`;
  const describedBy = [input['aria-describedby'], error ? errorId : null].filter(Boolean);
  return (
    <Field label={label} id={inputId}>
      <input
        id={inputId}
        {...input}
        aria-invalid={error ? true : input['aria-invalid']}
        aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
        className={inputClass}
      />
      <FieldError id={errorId} error={error} />
    </Field>
  );
}

/** A labelled textarea in the app's style; `error` as for TextField. */
export function TextAreaField({
  label,
  id,
  error,
  ...textarea
}: FieldProps<'textarea'> & { error?: string | null }) {
  const textareaId = useFieldId(id);
  const errorId = `${textareaId}-error`;
  return (
    <Field label={label} id={textareaId}>
      <textarea
        id={textareaId}
        {...textarea}
        aria-invalid={error ? true : textarea['aria-invalid']}
        aria-describedby={error ? errorId : textarea['aria-describedby']}
        className={inputClass}
      />
      <FieldError id={errorId} error={error} />
    </Field>
  );
}

/** A labelled select in the app's style; its options are the children. */
export function SelectField({ label, id, ...select }: FieldProps<'select'>) {
  const selectId = useFieldId(id);
  return (
    <Field label={label} id={selectId}>
      <select id={selectId} {...select} className={inputClass} />
    </Field>
  );
}

/** A group of inputs (radio buttons) under a legend styled like a field's label. */
export function Fieldset({ legend, children }: { legend: ReactNode; children: ReactNode }) {
  return (
    <fieldset>
      <legend className={labelClass}>{legend}</legend>
      {children}
    </fieldset>
  );
}
