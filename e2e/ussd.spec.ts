import { expect, type Page, test } from '@playwright/test';
import { createActiveUser, signInAs } from './support.ts';

// Basic phones (docs/decisions/0051): an expert tries the USSD menu on a phone-sized screen, through
// the server's real menu: a new number registers, then their own number asks for a call back, which
// shows in the experts' call-back list. The try-out's registration makes no account.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
test.setTimeout(180_000);

const screen = (page: Page) => page.getByTestId('ussd-screen');

async function fitsThePhone(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

async function answer(page: Page, text: string, expected: string | RegExp) {
  await page.getByRole('textbox', { name: 'Your answer' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(screen(page)).toContainText(expected);
}

test('an expert registers a new number and asks for a call back through the USSD try-out screen', async ({
  page,
  request,
}) => {
  const expert = await createActiveUser(request, 'expert');
  await signInAs(page, expert, '/account/phone-menu');
  await expect(page.getByRole('heading', { name: 'Try the USSD menu' })).toBeVisible();

  const newNumber = `+2567${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  await page.getByRole('textbox', { name: 'Phone number' }).fill(newNumber);
  await page.getByRole('button', { name: 'Dial' }).click();
  await expect(screen(page)).toContainText('3 Luganda');
  await fitsThePhone(page);
  await answer(page, '1', '1 Register (free)');
  await answer(page, '1', "Kutu's terms");
  await answer(page, '9', 'Type a number shown.');
  await answer(page, '1', 'Your name?');
  await answer(page, 'Apio', 'Where is your farm?');
  await answer(page, '1', 'first letters of your district');
  await answer(page, 'Kampa', '1 Kampala');
  await answer(page, '1', 'Which crops');
  await answer(page, '3', 'May Kutu send you SMS');
  await answer(page, '1', 'leaf photos');
  // The try-out says it saved nothing, instead of the farmer's "Welcome": no account was made.
  await answer(page, '1', 'Try-out only: nothing was saved');
  await expect(screen(page)).not.toContainText('account is ready');
  await expect(page.getByRole('button', { name: 'Dial' })).toBeVisible();
  await fitsThePhone(page);
  // A try-out leaves no account behind: the number's owner signs up.
  const owner = await request.post('/api/auth/register/farmer/', {
    data: {
      username: `apio${Date.now()}`,
      password: 'Gr0w!Smart2026',
      confirm_password: 'Gr0w!Smart2026',
      phone_number: newNumber,
      farm_location: 'Kampala',
      farm_size: 1,
      consent: { service: true, sms: true, training: false },
    },
  });
  expect(owner.status(), await owner.text()).toBe(201);

  // The expert's own number: the member menu, and a call-back request.
  await page.getByRole('textbox', { name: 'Phone number' }).fill(expert.phone);
  await page.getByRole('button', { name: 'Dial' }).click();
  await expect(screen(page)).toContainText('4 Ask an expert to call me');
  await answer(page, '4', '1 Yes, call me');
  await answer(page, '1', 'An expert will call you');

  await page.goto('/account/addresses/call-backs');
  await expect(page.getByRole('heading', { name: 'Call-back requests' })).toBeVisible();
  const card = page.getByRole('article', { name: expert.username });
  await expect(card).toContainText(expert.phone);
  await fitsThePhone(page);
  await card.getByRole('button', { name: 'I called them' }).click();
  await expect(page.getByText(`${expert.username} was called.`)).toBeVisible();
  await expect(card).toHaveCount(0);
});
