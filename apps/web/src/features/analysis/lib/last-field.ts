import { session } from '../../../lib/session.ts';

/** `lastField:<user id>`: the field this farmer's last photo on this phone was of, offered first. */
const key = () => `lastField:${session.user()?.id ?? 0}`;

export function lastFieldId(): number | null {
  try {
    return Number(localStorage.getItem(key())) || null;
  } catch {
    return null;
  }
}

export function rememberField(id: number) {
  try {
    localStorage.setItem(key(), String(id));
  } catch {
    // Storage refused: the field list's order is offered instead.
  }
}
