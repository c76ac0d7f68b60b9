import path from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { createActiveUser, signInAs, uniqueName } from './support.ts';

const MAKE_POST = '/account/addresses/community-posts';
const ALL_POSTS = '/account/addresses/all-posts';
const LEAF_PHOTO = path.join(import.meta.dirname, '../apps/server/test/fixtures/maize-common-rust.jpg');

/** The card's photo has loaded (decoded, with a size), not just an <img> element. */
async function expectPhoto(card: Locator, title: string) {
  // Post photos load once their card is on screen (PostImage): scroll to it as a reader would.
  await card.scrollIntoViewIfNeeded();
  const img = card.getByRole('img', { name: title });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
}

async function choose(scope: Locator, label: string, option: string) {
  // The label of a required field ends with an asterisk; the pickers are the phone's own (<select>).
  await scope.getByRole('combobox', { name: new RegExp(`^${label}`) }).selectOption({ label: option });
}

test('a farmer asks with a photo, an expert approves and answers, then flags the post off the board with a reason', async ({
  page,
  browser,
  request,
}) => {
  const farmer = await createActiveUser(request, 'farmer');
  const expert = await createActiveUser(request, 'expert');
  const title = uniqueName('Rust on maize ');
  const comment = 'I see the same orange pustules in Mbale.';
  const answer = 'Spray a triazole fungicide at first sign and rotate crops.';
  const flagReason = 'Please ask about one field per post.';

  // The farmer posts; it waits for approval in "My Posts".
  await signInAs(page, farmer, MAKE_POST);
  const form = page.getByRole('form', { name: 'Add a Post' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Content').fill('Small orange pustules appeared on both sides of the leaves this week.');
  await choose(form, 'Crop type', 'Maize');
  await choose(form, 'Disease', 'Common rust (Puccinia sorghi)');
  await choose(form, 'Urgency level', 'High');
  await form.getByTestId('post-photo-dropzone').locator('input[type="file"]').setInputFiles(LEAF_PHOTO);
  await expect(form.getByTestId('post-photo-preview').getByRole('img', { name: 'The chosen photo' })).toBeVisible();
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Community Post submitted for approval')).toBeVisible();
  await expect(form.getByTestId('post-photo-preview')).toHaveCount(0);
  const mine = page.getByTestId('my-posts').getByRole('article', { name: title });
  await expect(mine.getByText('Pending')).toBeVisible();
  await expectPhoto(mine, title);
  await expect(page.getByTestId('approved-posts').getByRole('article', { name: title })).toHaveCount(0);

  // The expert approves it.
  const expertContext = await browser.newContext();
  const expertPage = await expertContext.newPage();
  await signInAs(expertPage, expert, ALL_POSTS);
  const card = expertPage.getByRole('article', { name: title });
  await expect(card.getByText('Pending')).toBeVisible();
  await expectPhoto(card, title);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(expertPage.getByText('Community Post has been approved')).toBeVisible();
  // All Posts opens on the pending queue, which the approved post leaves.
  await expect(card).toHaveCount(0);
  await choose(expertPage.locator('body'), 'State', 'Approved');
  await expect(card.getByText('Approved')).toBeVisible();

  // The farmer sees it on the board and comments.
  await page.reload();
  const boardCard = page.getByTestId('approved-posts').getByRole('article', { name: title });
  await expect(boardCard).toBeVisible();
  await expectPhoto(boardCard, title);
  await boardCard.getByRole('button', { name: 'Comment', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Write a comment on this post' });
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Comment is required')).toBeVisible();
  await dialog.getByPlaceholder('Write your comment about this post...').fill(comment);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Your comment has been submitted')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The expert opens the post's comments, approves the comment and adds an expert comment.
  await card.getByRole('link', { name: 'Open comments' }).click();
  await expect(expertPage).toHaveURL(/\/account\/addresses\/\d+$/);
  const details = expertPage.getByTestId('post-details');
  await expect(details.getByText(title)).toBeVisible();
  await expect(details.getByText('Maize', { exact: true })).toBeVisible();
  const pending = expertPage.locator('[data-testid^="moderation-comment-"]').filter({ hasText: comment });
  await pending.getByLabel('Expert comment (optional)').fill(answer);
  await pending.getByRole('button', { name: 'Approve' }).click();
  await expect(expertPage.getByText('Comment has been approved')).toBeVisible();

  // The farmer sees both tabs filled.
  await page.reload();
  await page
    .getByTestId('approved-posts')
    .getByRole('article', { name: title })
    .getByRole('button', { name: 'View Comments' })
    .click();
  const comments = page.getByRole('dialog', { name: title });
  await expect(comments.getByText(comment)).toBeVisible();
  await expect(comments.getByText(farmer.username)).toBeVisible();
  await comments.getByRole('tab', { name: 'Expert Comments' }).click();
  await expect(comments.getByText(answer)).toBeVisible();
  await expect(comments.getByText(expert.username)).toBeVisible();
  await comments.getByRole('button').first().click(); // close

  // The expert flags the post; it leaves the farmer's board and shows as Flagged in "My Posts".
  await expertPage.goto(ALL_POSTS);
  await choose(expertPage.locator('body'), 'State', 'Approved');
  await expertPage.getByRole('article', { name: title }).getByRole('button', { name: 'Flag' }).click();
  const flagDialog = expertPage.getByRole('dialog', { name: 'Flag this post' });
  await flagDialog.getByLabel('Reason (optional)').fill(flagReason);
  await flagDialog.getByRole('button', { name: 'Flag' }).click();
  await expect(expertPage.getByText('Community Post has been flagged')).toBeVisible();
  await expect(flagDialog).toBeHidden();
  await page.reload();
  const flagged = page.getByTestId('my-posts').getByRole('article', { name: title });
  await expect(flagged.getByText('Flagged')).toBeVisible();
  await expect(flagged.getByText(`Reason: ${flagReason}`)).toBeVisible();
  await expect(page.getByTestId('approved-posts').getByRole('article', { name: title })).toHaveCount(0);

  // The moderation log names the post and links to it.
  await expertPage.getByRole('tab', { name: 'Moderation log' }).click();
  await expertPage
    .getByRole('link', { name: `Post: ${title}` })
    .first()
    .click();
  await expect(expertPage).toHaveURL(/\/account\/addresses\/\d+$/);
  await expertContext.close();
});

test('the server refuses a farmer on expert screens', async ({ page, request }) => {
  const farmer = await createActiveUser(request, 'farmer');
  await signInAs(page, farmer, ALL_POSTS);
  await expect(page.getByText('This screen is for experts.')).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const res = await request.get('/api/community/posts/all/', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(403);
});
