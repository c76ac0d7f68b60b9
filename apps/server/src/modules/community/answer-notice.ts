import type { ModuleDeps } from '../../deps.ts';
import { type Message, message } from '../../i18n/i18n.ts';
import { type SmsMessage, smsMessage } from '../../i18n/sms-texts.ts';

/** What a post's author is sent when an expert answers the post. */
export interface AnswerMessage {
  notice: Message;
  data: { post_id: number; response_id: number };
  sms: SmsMessage;
  /** The post with the answer open in the app. */
  link: string;
}

/** The farmer's screen of their posts, with this answer open (docs/decisions/0049). */
export const answerPath = (postId: number, responseId: number) =>
  `/account/addresses/community-posts?post=${postId}&answer=${responseId}`;

/** The news of an expert's answer: the post's title in the app, a short SMS with the link to the answer. */
export function answerMessage(
  post: { id: number; title: string },
  responseId: number,
  publicUrl: string,
): AnswerMessage {
  const link = `${publicUrl}${answerPath(post.id, responseId)}`;
  return {
    notice: message('notifications.communityAnswer', { title: post.title }),
    data: { post_id: post.id, response_id: responseId },
    sms: smsMessage('notifications.communityAnswerSms', { link }),
    link,
  };
}

/**
 * Tells a post's author that an expert answered it, through the delivery module (docs/decisions/0050):
 * in the app always, by SMS when they chose SMS notifications (`users.sms_alerts`, the outbreak and
 * follow-up rule, hence kind `alert`), never after STOP. An expert answering their own post is not told.
 * One message per answer (its key).
 */
export function createTellAsker(deps: Pick<ModuleDeps, 'delivery' | 'config'>) {
  return async function tellAsker(
    post: { id: number; title: string; authorId: number },
    answer: { id: number; authorId: number },
  ): Promise<void> {
    if (post.authorId === answer.authorId) return;
    const said = answerMessage(post, answer.id, deps.config.publicUrl);
    await deps.delivery.tell({
      to: post.authorId,
      key: `community-answer:${answer.id}`,
      kind: 'alert',
      app: { type: 'community_answer', text: said.notice, data: said.data },
      sms: said.sms,
    });
  };
}
