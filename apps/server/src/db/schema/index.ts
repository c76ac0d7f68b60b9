export * from './auth.ts';
export * from './notifications.ts';
export * from './community.ts';
export * from './consultations.ts';
export * from './analysis.ts';
export * from './training.ts';
export * from './review.ts';
export * from './outbreak.ts';
