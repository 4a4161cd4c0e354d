import { Trans, useLingui } from '@lingui/react/macro';
import { SelectField } from '#web/components/FormField';
import { Hint, SettingsSection } from '#web/components/SettingsSection';
import { errorMessage } from '#web/lib/api-client';
import { LANGUAGES, matchLanguage } from '#web/lib/i18n';
import { readStorage, STORAGE_KEYS } from '#web/lib/storage';
import { SET_LANGUAGE_OPERATION, useSetLanguage } from '../api/set-language';

const AUTOMATIC = '';

/**
 * Settings → Language: the browser's languages by default, or one chosen here, which the account
 * keeps for every device and for its e-mails.
 */
export function LanguageSection() {
  const { t } = useLingui();
  const setLanguage = useSetLanguage();
  const stored = readStorage(STORAGE_KEYS.language);
  const chosen = (stored && matchLanguage(stored)) || AUTOMATIC;

  return (
    <SettingsSection title={t`Language`}>
      <SelectField
        label={t`Language`}
        value={chosen}
        disabled={setLanguage.isPending}
        onChange={(event) => {
          const value = event.currentTarget.value;
          setLanguage.mutate(value === AUTOMATIC ? null : matchLanguage(value));
        }}
      >
        <option value={AUTOMATIC}>{t`Automatic (the browser’s language)`}</option>
        {LANGUAGES.map((language) => (
          <option key={language.tag} value={language.tag} lang={language.tag}>
            {language.name}
          </option>
        ))}
      </SelectField>
      <Hint>
        <Trans>
          Your choice is kept with your account: your other devices and e-mails follow it.
        </Trans>
      </Hint>
      {setLanguage.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {errorMessage(setLanguage.error, SET_LANGUAGE_OPERATION)}
        </p>
      )}
    </SettingsSection>
  );
}
