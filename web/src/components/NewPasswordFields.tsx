import { useLingui } from '@lingui/react/macro';
import { LIMITS } from '@tally/contract/constants';
import { TextField } from './FormField';

/**
 * A new password with the server's length rule (LIMITS), and its repeat when the form asks for
 * one, the same on every form that sets a password. `describedBy` names the hint that states the
 * rule; `error` is the server's sentence about the password, shown beside it.
 */
export function NewPasswordFields({
  name,
  id,
  describedBy,
  error,
  repeat = false,
}: {
  name: string;
  id?: string;
  describedBy: string;
  error?: string | null;
  repeat?: boolean;
}) {
  const { t } = useLingui();
  return (
    <>
      <TextField
        label={t`New password`}
        id={id}
        name={name}
        type="password"
        autoComplete="new-password"
        minLength={LIMITS.passwordMin}
        maxLength={LIMITS.passwordMax}
        aria-describedby={describedBy}
        error={error}
        required
      />
      {repeat && (
        <TextField
          label={t`Repeat new password`}
          id={id === undefined ? undefined : `${id}-repeat`}
          name="repeat"
          type="password"
          autoComplete="new-password"
          minLength={LIMITS.passwordMin}
          maxLength={LIMITS.passwordMax}
          required
        />
      )}
    </>
  );
}
