/**
 * Luganda drops a noun's initial vowel after "mu" (in): "mu nnimiro", never "mu Ennimiro". A field's name
 * is filled into sentences such as "Tambula mu {{name}}", and the names Kutu gives ("Ennimiro 1", "Ennimiro
 * yange") start with that vowel; both apps pass every Luganda text through this after filling it in.
 */
export function lugandaAfterMu(text: string): string {
  return text.replace(/\b([Mm]u) Ennimiro\b/g, '$1 nnimiro');
}
