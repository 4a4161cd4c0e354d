import { afterEach, describe, expect, it } from 'vitest';
import { copyResult } from './copy-text';
import { activateLanguage } from './i18n';

afterEach(() => activateLanguage('en'));

describe('a copy result, in the language', () => {
  it('says what was copied, or how to copy it, as a whole sentence of the language', async () => {
    expect(copyResult(true, 'recoveryCodes')).toBe('Recovery codes copied to the clipboard.');
    await activateLanguage('de');
    expect(copyResult(true, 'token')).toBe('Token in die Zwischenablage kopiert.');
    expect(copyResult(false, 'secretKey')).toBe(
      'Kopieren nicht möglich: Der geheime Schlüssel ist markiert, drück Strg+C (⌘C auf dem Mac), um ihn zu kopieren.',
    );
    await activateLanguage('ar');
    expect(copyResult(true, 'configuration')).toBe('تم نسخ الإعدادات إلى الحافظة.');
  });
});
