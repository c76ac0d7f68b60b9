/** Where farmers and experts write to us (the contact page and the terms name them). */
export const SUPPORT_EMAIL = 'support@kutu.africa';
export const PRIVACY_EMAIL = 'privacy@kutu.africa';
