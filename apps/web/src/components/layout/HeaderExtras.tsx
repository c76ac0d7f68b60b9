/** Top-bar additions (the notifications issue adds the unread badge here). */
export function HeaderExtras() {
  return null;
}
