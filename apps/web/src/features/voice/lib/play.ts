/**
 * Plays audio through Web Audio: the content security policy allows no `blob:` media, and the farmers'
 * Listen button sounds the same way. The context is made at once (in the tap), the bytes may come later.
 */
export async function playBytes(bytes: Promise<ArrayBuffer>): Promise<void> {
  const ctx = new AudioContext();
  const source = ctx.createBufferSource();
  source.buffer = await ctx.decodeAudioData(await bytes);
  source.connect(ctx.destination);
  source.onended = () => void ctx.close();
  source.start();
}
