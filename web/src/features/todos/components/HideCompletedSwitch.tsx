import { useLingui } from '@lingui/react/macro';
import { memo } from 'react';
import { Switch } from '#web/components/Switch';

/** Hide completed: a switch (role="switch"), remembered by its owner (hooks/use-hide-completed). */
export const HideCompletedSwitch = memo(function HideCompletedSwitch({
  on,
  onChange,
  label,
}: {
  on: boolean;
  onChange: (on: boolean) => void;
  /** The switch's words: the list's other switch, Show later todos, looks the same. */
  label?: string;
}) {
  const { t } = useLingui();
  return <Switch on={on} onChange={onChange} label={label ?? t`Hide completed`} />;
});
