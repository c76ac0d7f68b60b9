import { Anchor, Group } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../config/routes.ts';

type LinkName = 'signup' | 'expertSignup' | 'login' | 'terms' | 'privacy' | 'contactUs' | 'forgotPassword';

const targets: Record<LinkName, string> = {
  signup: routes.auth.signup,
  expertSignup: routes.auth.expertSignup,
  login: routes.auth.login,
  terms: routes.terms,
  privacy: `${routes.terms}#privacy`,
  contactUs: routes.contactUs,
  forgotPassword: routes.auth.forgotPassword,
};

/** The row of links under an auth form (Sign Up, Login, Terms, Contact Us, ...). */
export function AuthLinks({ links }: { links: LinkName[] }) {
  const { t } = useTranslation();
  return (
    <Group component="nav" aria-label={t('auth.links.label')} gap="md" justify="center" mt="lg">
      {links.map((name) => (
        <Anchor key={name} component={Link} to={targets[name]} size="sm">
          {t(`auth.links.${name}`)}
        </Anchor>
      ))}
    </Group>
  );
}
