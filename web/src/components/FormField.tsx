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

/** A labelled input in the app's style. */
export function TextField({ label, id, ...input }: FieldProps<'input'>) {
  const inputId = useFieldId(id);
  return (
    <Field label={label} id={inputId}>
      <input id={inputId} {...input} className={inputClass} />
    </Field>
  );
}

/** A labelled textarea in the app's style. */
export function TextAreaField({ label, id, ...textarea }: FieldProps<'textarea'>) {
  const textareaId = useFieldId(id);
  return (
    <Field label={label} id={textareaId}>
      <textarea id={textareaId} {...textarea} className={inputClass} />
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
