import { List, Text } from '@mantine/core';
import { StaticLayout } from '../components/StaticLayout.tsx';
import { ContactLink, PrivacyEmail, SupportEmail, TermsSection as Section } from './TermsSection.tsx';

/** Kiswahili text of TermsEn (same sections, lists and links); words from docs/i18n/glossary.md. */
export default function TermsSw() {
  return (
    <StaticLayout title="Masharti ya matumizi na faragha" updated="Ilisasishwa: 23 Novemba 2026">
      <Text>
        Kutu huwasaidia wakulima nchini Uganda na Kenya kugundua mapema ugonjwa wa kutu kwenye mazao yao, kuzungumza na
        wakulima wengine, na kuweka miadi na wataalamu wa kilimo. Kwa kufungua akaunti unakubali masharti haya.
        Tafadhali yasome; ni mafupi.
      </Text>

      <Section title="1. Akaunti yako">
        <List spacing="xs">
          <List.Item>
            Unajisajili kama mkulima au kama mtaalamu wa kilimo. Tumia namba yako ya simu na, ukiitoa, barua pepe yako
            mwenyewe: tunatuma misimbo ya matumizi ya mara moja ili kuthibitisha kwamba ni zako.
          </List.Item>
          <List.Item>
            Usimwambie mtu nenosiri lako. Ukidhani mtu mwingine analijua, libadilishe kwenye Wasifu, Badilisha nenosiri,
            au tumia Umesahau nenosiri kwenye ukurasa wa kuingia.
          </List.Item>
          <List.Item>
            Wataalamu hutueleza sifa zao wanapojisajili. Toa taarifa za kweli; wakulima huzitegemea wanapochagua wa
            kumuuliza.
          </List.Item>
        </List>
      </Section>

      <Section title="2. Uchunguzi wa kutu unaweza nini na hauwezi nini">
        <Text>
          Uchunguzi wa picha ni makadirio yanayofanywa na modeli ya kompyuta kutoka kwenye picha yako. Unaweza kukosea,
          hasa kwa picha zisizo wazi, zenye giza au zilizopigwa kutoka mbali, au kwa magonjwa ambayo haukufunzwa
          kuyatambua. Unaonyesha una uhakika kiasi gani; usipoweza kujua, unasema hivyo. Utumie kama tahadhari ya
          mapema, si kama jibu la mwisho: kabla ya kutumia pesa kwa dawa, wasiliana na mtaalamu au afisa ugani wa eneo
          lako.
        </Text>
      </Section>

      <Section id="privacy" title="3. Data yako na faragha">
        <Text>Tunahifadhi tu kile ambacho Kutu inahitaji ili ifanye kazi:</Text>
        <List spacing="xs">
          <List.Item>
            <b>Taarifa za akaunti</b>: barua pepe, jina la mtumiaji, namba ya simu, na taarifa za shamba au za kitaaluma
            unazotoa unapojisajili au kwenye wasifu wako. Tunazitumia kuendesha akaunti yako, kukutumia misimbo na
            arifa, na kuonyesha jina lako la mtumiaji kando ya machapisho na miadi yako.
          </List.Item>
          <List.Item>
            <b>Picha unazopakia</b> kwa uchunguzi huhifadhiwa pamoja na matokeo ili uweze kuona historia yako. Picha za
            mafunzo ambazo wataalamu wameziwekea majina hutumika kuboresha modeli. Picha haziuzwi wala kuonyeshwa
            hadharani. Epuka kupiga picha za watu au kitu chochote cha faragha; picha ya karibu ya jani ndiyo bora
            zaidi.
          </List.Item>
          <List.Item>
            <b>Machapisho na maoni</b> kwenye ubao wa jamii yanaonekana kwa watumiaji wengine wa Kutu baada ya mtaalamu
            kuyakubali. Usiweke humo namba za simu, namba za kitambulisho au taarifa nyingine binafsi.
          </List.Item>
          <List.Item>
            <b>Taarifa za wasifu</b> kama namba yako ya kitambulisho na tarehe ya kuzaliwa zinaonekana kwako tu, na kwa
            timu ya Kutu inapohitajika kukusaidia.
          </List.Item>
        </List>
        <Text>
          Hatuuzi data yako wala kuitumia kwa matangazo. Tunaihifadhi wakati wote akaunti yako iko wazi. Unaweza kuomba
          nakala ya data yako, marekebisho, au akaunti na data yako vifutwe kwa kuandika kwa <PrivacyEmail />.
          Tunashughulikia data binafsi kwa mujibu wa Sheria ya Ulinzi wa Data na Faragha ya Uganda ya 2019 (Data
          Protection and Privacy Act) na Sheria ya Ulinzi wa Data ya Kenya ya 2019 (Data Protection Act).
        </Text>
      </Section>

      <Section title="4. Kanuni za jamii">
        <List spacing="xs">
          <List.Item>Kuwa na heshima. Hakuna matusi, vitisho, chuki wala unyanyasaji.</List.Item>
          <List.Item>Baki kwenye mada: mazao, wadudu, magonjwa, udongo, masoko na mbinu za kilimo.</List.Item>
          <List.Item>
            Hakuna matangazo wala kuuza kemikali au mbegu kwenye machapisho. Pendekeza bidhaa pale tu unapotaja sababu
            na jinsi ya kuitumia kwa usalama.
          </List.Item>
          <List.Item>Shiriki ushauri unaoamini ni wa kweli na salama. Sema hivyo usipokuwa na uhakika.</List.Item>
          <List.Item>Weka tu picha ulizopiga mwenyewe au unazoruhusiwa kushiriki.</List.Item>
        </List>
        <Text>
          Wataalamu husimamia ubao: machapisho huonekana baada ya kukubaliwa, na machapisho au maoni yanayovunja kanuni
          hizi yanaweza kufichwa au kuondolewa. Kuvunja kanuni mara kwa mara kunaweza kusababisha akaunti kufungwa.
        </Text>
      </Section>

      <Section title="5. Mashauriano">
        <Text>
          Wataalamu huweka nyakati ambazo wanapatikana, na wakulima huweka miadi. Miadi inathibitishwa mtaalamu
          anapoikubali. Ushauri unaotolewa katika mashauriano ni wa mtaalamu mwenyewe; Kutu haihakikishi matokeo.
        </Text>
      </Section>

      <Section title="6. Mabadiliko na mawasiliano">
        <Text>
          Tunaweza kubadilisha masharti haya; tukifanya badiliko muhimu tutakujulisha ndani ya programu kabla halijaanza
          kutumika. Una swali? Angalia <ContactLink>Wasiliana nasi</ContactLink> au andika kwa <SupportEmail />.
        </Text>
      </Section>
    </StaticLayout>
  );
}
