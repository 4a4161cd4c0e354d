import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { LIMITS } from '@tally/contract/constants';
import { TextAreaField, TextField } from '#web/components/FormField';
import { TITLE_PATTERN } from '../lib/todo-fields';

interface TodoTextFieldsProps {
  title: string;
  description: string;
  onTitleChange: (title: string) => void;
  onDescriptionChange: (description: string) => void;
  descriptionLabel?: ReactNode;
  /** Shown right under the title (quick add's chips). */
  titleExtra?: ReactNode;
  /** The sentences refusing what was typed, shown beside each field. */
  errors?: { title?: string | null; description?: string | null };
}

/** A todo's title (required, focused first) and description (3 rows), as both forms show them. */
export function TodoTextFields({
  title,
  description,
  onTitleChange,
  onDescriptionChange,
  descriptionLabel,
  titleExtra,
  errors = {},
}: TodoTextFieldsProps) {
  const { t } = useLingui();
  return (
    <>
      <div>
        <TextField
          label={t`Title`}
          value={title}
          onChange={(event) => onTitleChange(event.target.value)}
          required
          pattern={TITLE_PATTERN}
          title={t`Enter a title`}
          maxLength={LIMITS.todoTitleMax}
          autoComplete="off"
          autoFocus
          error={errors.title}
        />
        {titleExtra}
      </div>
      <TextAreaField
        label={descriptionLabel ?? t`Description`}
        value={description}
        onChange={(event) => onDescriptionChange(event.target.value)}
        rows={3}
        maxLength={LIMITS.todoDescriptionMax}
        error={errors.description}
      />
    </>
  );
}
