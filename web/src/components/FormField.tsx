import { useId, type ComponentProps, type ReactNode } from 'react';
import { inputClass, labelClass } from './form-styles';

type FieldProps<Element extends 'input' | 'textarea'> = Omit<
  ComponentProps<Element>,
  'className'
> & {
  label: ReactNode;
};

/** A labelled input in the app's style; without an id it gets a unique one. */
export function TextField({ label, id, ...input }: FieldProps<'input'>) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <div>
      <label htmlFor={inputId} className={labelClass}>
        {label}
      </label>
      <input id={inputId} {...input} className={inputClass} />
    </div>
  );
}

/** A labelled textarea in the app's style; without an id it gets a unique one. */
export function TextAreaField({ label, id, ...textarea }: FieldProps<'textarea'>) {
  const generatedId = useId();
  const textareaId = id ?? generatedId;
  return (
    <div>
      <label htmlFor={textareaId} className={labelClass}>
        {label}
      </label>
      <textarea id={textareaId} {...textarea} className={inputClass} />
    </div>
  );
}
