import { afterEach, describe, expect, it } from 'vitest';
import { activateLanguage } from './i18n';
import { oidcFailureSentence } from './oidc-failure';

afterEach(() => activateLanguage('en'));

describe('an OIDC failure, in the language', () => {
  it('words an oidc_error code with the provider where the language puts it', async () => {
    expect(oidcFailureSentence('unavailable', 'Authentik')).toBe(
      'Authentik could not be reached - please try again later',
    );
    await activateLanguage('de');
    expect(oidcFailureSentence('unavailable', 'Authentik')).toBe(
      'Authentik ist nicht erreichbar – bitte versuch es später noch einmal',
    );
    await activateLanguage('ja');
    expect(oidcFailureSentence('linked_elsewhere', 'Authentik')).toBe(
      'その Authentik アカウントは既に別の Tally アカウントに連携されています',
    );
  });

  it('names an unknown provider and an unknown code in the language, and nothing without a code', async () => {
    await activateLanguage('fr');
    expect(oidcFailureSentence('no_such_code', null)).toBe(
      'La connexion avec le fournisseur a échoué - veuillez réessayer',
    );
    expect(oidcFailureSentence(null, 'Authentik')).toBeNull();
  });
});
