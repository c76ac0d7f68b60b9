import { List, Text } from '@mantine/core';
import { StaticLayout } from '../components/StaticLayout.tsx';
import { ContactLink, PrivacyEmail, SupportEmail, TermsSection as Section } from './TermsSection.tsx';

export default function TermsEn() {
  return (
    <StaticLayout title="Terms of use and privacy" updated="Last updated: 23 November 2026">
      <Text>
        Kutu helps farmers in Uganda and Kenya spot rust disease on their crops early, talk with other farmers, and book
        time with agricultural experts. By creating an account you agree to these terms. Please read them; they are
        short.
      </Text>

      <Section title="1. Your account">
        <List spacing="xs">
          <List.Item>
            You sign up as a farmer or as an agricultural expert. Use your own phone number and, if you give one, your
            own email address: we send one-time codes to them to confirm they are yours.
          </List.Item>
          <List.Item>
            Keep your password to yourself. If you think someone else knows it, change it under Profile, Change
            Password, or use Forgot Password on the sign-in screen.
          </List.Item>
          <List.Item>
            Experts tell us about their qualifications when they sign up. Give true details; farmers rely on them when
            they choose whom to ask.
          </List.Item>
        </List>
      </Section>

      <Section title="2. What the rust check can and cannot do">
        <Text>
          The image analysis is an automatic estimate made by a computer model from your photo. It can be wrong,
          especially with blurred, dark or distant photos, or with diseases it was not trained on. It shows how
          confident it is; when it cannot tell, it says so. Use it as an early warning, not as a final diagnosis: before
          spending money on treatment, check with an expert or your local extension officer.
        </Text>
      </Section>

      <Section id="privacy" title="3. Your data and privacy">
        <Text>We keep only what Kutu needs to work:</Text>
        <List spacing="xs">
          <List.Item>
            <b>Account details</b>: email, username, phone number, and the farm or professional details you give at
            sign-up or in your profile. We use them to run your account, to send you codes and notices, and to show your
            username next to your posts and bookings.
          </List.Item>
          <List.Item>
            <b>Photos you upload</b> for analysis are stored with the result so you can see your history. Experts'
            labelled training photos are used to improve the model. Photos are not sold or shown publicly. Avoid
            photographing people or anything private; a close picture of the leaf works best.
          </List.Item>
          <List.Item>
            <b>Posts and comments</b> on the community board are visible to other Kutu users once an expert approves
            them. Do not post phone numbers, ID numbers or other personal details there.
          </List.Item>
          <List.Item>
            <b>Profile details</b> such as your ID number and date of birth are visible only to you and to the Kutu team
            when needed to help you.
          </List.Item>
        </List>
        <Text>
          We do not sell your data or use it for advertising. We keep it while your account is open. You may ask for a
          copy of your data, for corrections, or for your account and data to be deleted by writing to <PrivacyEmail />.
          We handle personal data in line with Uganda's Data Protection and Privacy Act, 2019 and Kenya's Data
          Protection Act, 2019.
        </Text>
      </Section>

      <Section title="4. Community rules">
        <List spacing="xs">
          <List.Item>Be respectful. No insults, threats, hate or harassment.</List.Item>
          <List.Item>Stay on topic: crops, pests, diseases, soil, markets and farming practice.</List.Item>
          <List.Item>
            No advertising or selling of chemicals or seed in posts. Recommend products only with the reason and safe
            use.
          </List.Item>
          <List.Item>Share advice you believe is true and safe. Say so when you are not sure.</List.Item>
          <List.Item>Post only photos you took or may share.</List.Item>
        </List>
        <Text>
          Experts moderate the board: posts appear after approval, and posts or comments that break these rules may be
          flagged or removed. Repeated breaches can lead to the account being closed.
        </Text>
      </Section>

      <Section title="5. Consultations">
        <Text>
          Experts publish the times they are available, and farmers book them. A booking is confirmed when the expert
          approves it. Advice given in a consultation is the expert's own; Kutu does not guarantee results.
        </Text>
      </Section>

      <Section title="6. Changes and contact">
        <Text>
          We may update these terms; when we make an important change we tell you in the app before it takes effect.
          Questions? See <ContactLink>Contact Us</ContactLink> or write to <SupportEmail />.
        </Text>
      </Section>
    </StaticLayout>
  );
}
