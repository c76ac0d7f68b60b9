export * from './common.ts';
export * from './enums.ts';
export * from './auth.ts';
export * from './paths.ts';
export * from './consultations.ts';
export * from './notifications.ts';
export * from './dashboard.ts';
export * from './analysis.ts';
