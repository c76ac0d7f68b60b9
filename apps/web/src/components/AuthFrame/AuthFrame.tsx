import type { ReactNode } from 'react';
import { currentLanguage, isLanguage, languages, nativeNames, useStrings } from '../../lib/language.ts';
import { chooseLanguage } from '../../lib/language-sync.ts';
import classes from './AuthFrame.module.css';

/**
 * The frame of the screens before sign-in: the brand's hero beside (on a wide screen) a card with the
 * logo, the language switch and the screen. Plain React and CSS, no Mantine: the sign-in screen shows it
 * before the full app is downloaded (src/main.tsx), and the other auth screens (app/layout/AuthLayout.tsx)
 * show the same one.
 */
export function AuthFrame({ children }: { children: ReactNode }) {
  const { t } = useStrings();
  return (
    <div className={classes.page}>
      <div className={classes.hero}>
        <div className={classes.heroText}>
          <div className={classes.brand}>
            <img src="/favicon.svg" width={48} height={48} alt="" />
            <span className={classes.heroName}>{t('app.name')}</span>
          </div>
          <p className={classes.tagline}>{t('app.tagline')}</p>
          <p className={classes.intro}>{t('app.hero.intro')}</p>
          <ul className={classes.points}>
            <li>{t('app.hero.rust')}</li>
            <li>{t('app.hero.community')}</li>
            <li>{t('app.hero.consult')}</li>
          </ul>
        </div>
      </div>
      {/* The screen's title is the page's one <h1>. */}
      <main className={classes.side}>
        <div className={classes.card}>
          <div className={classes.top}>
            <div className={classes.phoneBrand}>
              <img src="/favicon.svg" width={28} height={28} alt="" />
              <span>{t('app.name')}</span>
            </div>
            <LanguageSelect />
          </div>
          {children}
        </div>
      </main>
    </div>
  );
}

/** Each language in its own name; a native select, named (and titled) "Language" in the language shown. */
function LanguageSelect() {
  const { t } = useStrings();
  return (
    <select
      className={classes.language}
      aria-label={t('language.label')}
      title={t('language.label')}
      value={currentLanguage()}
      onChange={(event) => {
        const chosen = event.currentTarget.value;
        if (isLanguage(chosen)) void chooseLanguage(chosen);
      }}
      data-testid="language-switch"
    >
      {languages.map((language) => (
        <option key={language} value={language}>
          {nativeNames[language]}
        </option>
      ))}
    </select>
  );
}
