import { List, Text } from '@mantine/core';
import { StaticLayout } from '../components/StaticLayout.tsx';
import { ContactLink, PrivacyEmail, SupportEmail, TermsSection as Section } from './TermsSection.tsx';

/**
 * Luganda text of TermsEn (same sections, lists and links); words from docs/i18n/glossary.md. Not yet
 * reviewed by a native-speaking extension officer, like the rest of the Luganda texts.
 */
export default function TermsLg() {
  return (
    <StaticLayout
      title="Obukwakkulizo bw'okukozesa n'okukuuma ebikukwatako"
      updated="Ebyasembayo okukyusibwa: 23 Novemba 2026"
    >
      <Text>
        Kutu eyamba abalimi mu Uganda ne Kenya okulaba amangu obulwadde bwa kutu ku birime byabwe, okwogera n'abalimi
        abalala, n'okukwata obudde n'abakugu b'ebyobulimi. Bw'okola akawunti, oba okkirizza obukwakkulizo buno. Busome;
        bumpi.
      </Text>

      <Section title="1. Akawunti yo">
        <List spacing="xs">
          <List.Item>
            Weewandiisa ng'omulimi oba ng'omukugu w'ebyobulimi. Kozesa ennamba y'essimu yo, ne email yo bw'oba ogiwadde:
            tuziweereza koodi ez'omulundi gumu okukakasa nti zizo.
          </List.Item>
          <List.Item>
            Ekigambo kyo eky'ekyama tokibuulira muntu. Bw'olowooza nti omuntu omulala akimanyi, kikyuse mu Ebikukwatako,
            Kyusa ekigambo eky'ekyama, oba kozesa Weerabidde ekigambo eky'ekyama ku lupapula lw'okuyingira.
          </List.Item>
          <List.Item>
            Abakugu batubuulira ku bisaanyizo byabwe nga beewandiisa. Muwe ebituufu; abalimi babyesigamako nga balonda
            gwe banaabuuza.
          </List.Item>
        </List>
      </Section>

      <Section title="2. Okukebera kutu kye kusobola ne kye kutasobola">
        <Text>
          Okukebera ekifaananyi kuteebereza kwa kompyuta (modeli) okuva ku kifaananyi kyo. Kuyinza okukyamuka, naddala
          ku bifaananyi ebitalabika bulungi, ebiri mu kizikiza oba ebyakubiddwa ewala, oba ku ndwadde ze
          kutaayigirizibwako. Kulaga obukakafu bwakwo; bwe kuba tekusobola kumanya, kukyogera. Kukozese ng'okulabula
          okw'amangu, so si ng'eky'enkomerero: nga tonnasaasaanya ssente ku ddagala, buuza omukugu oba omukozi
          w'ebyobulimi ow'omu kitundu kyo.
        </Text>
      </Section>

      <Section id="privacy" title="3. Ebikukwatako n'okubikuuma">
        <Text>Tukuuma ebyo byokka Kutu by'eyetaaga okukola:</Text>
        <List spacing="xs">
          <List.Item>
            <b>Ebikwata ku akawunti</b>: email, erinnya ly'omukozesa, ennamba y'essimu, n'ebikwata ku nnimiro oba ku
            mulimu gwo by'owa nga weewandiisa oba mu Ebikukwatako. Tubikozesa okuddukanya akawunti yo, okukuweereza
            koodi n'obubaka, n'okulaga erinnya lyo ery'omukozesa ku bubaka bwo ne ku budde bw'okwataganye nabwo.
          </List.Item>
          <List.Item>
            <b>Ebifaananyi by'oteeka</b> okukeberebwa bikuumibwa wamu n'ebivudde mu kukebera, olyoke olabe ebyayita.
            Ebifaananyi abakugu bye bawandiiseeko amannya bikozesebwa okulongoosa modeli. Ebifaananyi tebitundibwa era
            tebiragibwa mu lujjudde. Weewale okukuba ebifaananyi by'abantu oba eby'ekyama; ekifaananyi ky'ekikoola ekiri
            okumpi kye kisinga.
          </List.Item>
          <List.Item>
            <b>Obubaka n'endowooza</b> ku lupapula lw'abalimi banno birabibwa abakozesa ba Kutu abalala omukugu bw'amala
            okubikkiriza. Tobiteekamu nnamba za ssimu, nnamba z'endagamuntu oba ebirala ebikukwatako.
          </List.Item>
          <List.Item>
            <b>Ebikukwatako</b> nga ennamba y'endagamuntu yo n'olunaku lwe wazaalibwa birabibwa ggwe wekka, n'abakozi ba
            Kutu bwe kiba kyetaagisa okukuyamba.
          </List.Item>
        </List>
        <Text>
          Tetutunda bikukwatako era tetubikozesa kulanga. Tubikuuma ng'akawunti yo ekyaliwo. Oyinza okusaba kopi
          y'ebikukwatako, okubitereeza, oba akawunti yo n'ebikukwatako okusangulwawo ng'owandiikira <PrivacyEmail />.
          Ebikwata ku bantu tubikwata okusinziira ku tteeka lya Uganda erikuuma ebikwata ku bantu (Data Protection and
          Privacy Act, 2019) n'etteeka lya Kenya (Data Protection Act, 2019).
        </Text>
      </Section>

      <Section title="4. Amateeka g'abalimi banno">
        <List spacing="xs">
          <List.Item>Ba n'ekitiibwa. Tewali kuvuma, kutiisatiisa, bukyayi wadde okutulugunya.</List.Item>
          <List.Item>Sigala ku nsonga: ebirime, ebiwuka, endwadde, ettaka, obutale n'enkola y'okulima.</List.Item>
          <List.Item>
            Tewali kulanga wadde okutunda eddagala oba ensigo mu bubaka. Bw'osemba ekintu, wa ensonga n'engeri
            y'okukikozesaamu awatali bulabe.
          </List.Item>
          <List.Item>Gabana amagezi g'okkiriza nti matuufu era tegalina bulabe. Bw'oba tokakasa, kyogere.</List.Item>
          <List.Item>Teekayo ebifaananyi by'okubye ggwe oba by'okkirizibwa okugabana byokka.</List.Item>
        </List>
        <Text>
          Abakugu be balabirira olupapula: obubaka bulabika nga bumaze okukkirizibwa, n'obubaka oba endowooza ebimenya
          amateeka gano biyinza okukwekebwa oba okuggibwawo. Okugamenya emirundi mingi kuyinza okuviirako akawunti
          okuggalwawo.
        </Text>
      </Section>

      <Section title="5. Okwebuuza ku mukugu">
        <Text>
          Abakugu bateekawo obudde bwe baliwo, abalimi ne bakwata obudde obwo. Okwewandiisa kukakasibwa omukugu
          bw'akukkiriza. Amagezi agaweebwa mu kwebuuza ku mukugu ga mukugu yennyini; Kutu tekakasa bivaamu.
        </Text>
      </Section>

      <Section title="6. Enkyukakyuka n'okututuukirira">
        <Text>
          Tuyinza okukyusa obukwakkulizo buno; bwe tukola enkyukakyuka enkulu, tukutegeeza mu app nga tebunnatandika
          kukola. Olina ekibuuzo? Laba <ContactLink>Tutuukirire</ContactLink> oba wandiikira <SupportEmail />.
        </Text>
      </Section>
    </StaticLayout>
  );
}
