// The Mantine styles of the app's first screens (sign-up, password reset, static pages) and the shell, loaded with
// the app (App.tsx); the sign-in screen draws none (its own CSS, decision 0077). The whole
// @mantine/core/styles.css is 290 KB (decision 0016). Every other component's styles come with the component,
// in the chunk of the screen that uses it (vite.config.ts, mantineStylesWithComponents, which reads this
// list to leave these out). Mantine's default-css-variables.css (3 KiB brotli) is left out: MantineProvider
// writes every variable itself (App.tsx, `deduplicateCssVariables={false}`).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
