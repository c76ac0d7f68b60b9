import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
import { translations } from '@zxcvbn-ts/language-en';
import passwords from './common-passwords.json';

/**
 * zxcvbn with keyboard graphs, English feedback and the 5,000 most common passwords (about 20 KB
 * compressed). The full common and English dictionaries were 1.6 MB, the larger part of the sign-up
 * page on a 2G phone (decision 0016). `common-passwords.json` is the head of @zxcvbn-ts/language-common
 * 4.1.3's ranked password list (MIT, `common-passwords.LICENSE.txt`). Named imports, so the bundler
 * leaves the packages' big dictionaries out.
 */
export const zxcvbn = new ZxcvbnFactory({
  translations,
  graphs: adjacencyGraphs,
  dictionary: { 'passwords-common': passwords },
});
