import { describe, expect, it } from 'vitest';
import { t } from './i18n.ts';

describe('a field name after "mu" in Luganda texts', () => {
  it('loses its initial vowel ("mu nnimiro 1"), in the USSD walk and the walk reminder', () => {
    const walk = t('lg', 'ussd.walk.looked', { name: 'Ennimiro 1', max: 50 });
    expect(walk).toMatch(/^Tambula mu nnimiro 1:/);
    expect(t('lg', 'followUp.walkReminder', { field: 'Ennimiro yange' })).toContain('mu nnimiro yange:');
    // A name of the farmer's own, and English, are left as they are.
    expect(t('lg', 'ussd.walk.looked', { name: 'Kibanja', max: 50 })).toMatch(/^Tambula mu Kibanja:/);
    expect(t('en', 'ussd.walk.looked', { name: 'Field 1', max: 50 })).toMatch(/^Walk Field 1:/);
  });
});
