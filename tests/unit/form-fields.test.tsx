import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TextAreaField, TextField } from '../../app/components/form.tsx';

const field = { name: 'email', key: 'k1', initialValue: 'ann@example.com' };

/** The attributes of the one element whose tag is given (the test markup has one of each). */
function tagOf(html: string, tag: string): string {
  const match = new RegExp(`<${tag}\\b[^>]*>`).exec(html);
  if (!match) throw new Error(`no <${tag}> in ${html}`);
  return match[0];
}

describe('TextField', () => {
  it('labels a valid input, binds it to its field and passes input attributes through', () => {
    const html = renderToStaticMarkup(
      <TextField id="f-email" label="Email" field={field} error={undefined} errorId="f-email-error" type="email" />,
    );
    expect(tagOf(html, 'label')).toContain('for="f-email"');
    const input = tagOf(html, 'input');
    expect(input).toContain('id="f-email"');
    expect(input).toContain('name="email"');
    expect(input).toContain('value="ann@example.com"');
    expect(input).toContain('type="email"');
    expect(input).toContain('aria-invalid="false"');
    expect(input).not.toContain('aria-describedby');
    expect(input).toContain('border-gray-300');
    expect(html).not.toContain('f-email-error');
  });

  it('shows the error under an invalid input and points the input at it', () => {
    const html = renderToStaticMarkup(
      <TextField
        id="f-email"
        label="Email"
        field={field}
        error="Enter a valid e-mail address."
        errorId="f-email-error"
        errorTestId="email-error"
      />,
    );
    const input = tagOf(html, 'input');
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="f-email-error"');
    expect(input).toContain('border-red-700');
    expect(tagOf(html, 'p')).toMatch(/id="f-email-error"[^>]*data-testid="email-error"/);
    expect(html).toContain('Enter a valid e-mail address.</p>');
  });

  it('keeps a hint in aria-describedby after the error, and the hint under the error', () => {
    const props = {
      id: 'f-code',
      label: 'Code',
      field: { name: 'code', key: undefined, initialValue: undefined },
      errorId: 'f-code-error',
      describedBy: 'f-code-hint',
      controlClassName: 'font-mono',
      hint: <p id="f-code-hint">Sent to you</p>,
    };
    const valid = renderToStaticMarkup(<TextField {...props} error={undefined} />);
    expect(tagOf(valid, 'input')).toContain('aria-describedby="f-code-hint"');
    expect(tagOf(valid, 'input')).toMatch(/class="[^"]* font-mono"/);
    const invalid = renderToStaticMarkup(<TextField {...props} error="Enter the 6-digit code." />);
    expect(tagOf(invalid, 'input')).toContain('aria-describedby="f-code-error f-code-hint"');
    expect(invalid.indexOf('f-code-error">')).toBeLessThan(invalid.indexOf('Sent to you'));
  });

  it('puts an adornment over the input, in one positioned box', () => {
    const html = renderToStaticMarkup(
      <TextField
        id="f-password"
        label="Password"
        field={{ name: 'password', key: undefined, initialValue: undefined }}
        error={undefined}
        errorId="f-password-error"
        type="password"
        adornment={<button type="button">Show password</button>}
      />,
    );
    expect(html).toMatch(
      /<div class="relative"><input[^>]*type="password"[^>]*\/><button type="button">Show password<\/button><\/div>/,
    );
  });
});

describe('TextAreaField', () => {
  it('renders a textarea with the same label, error and links', () => {
    const html = renderToStaticMarkup(
      <TextAreaField
        id="f-message"
        label="Message"
        field={{ name: 'message', key: undefined, initialValue: 'Hello' }}
        error="Write a message."
        errorId="f-message-error"
        errorTestId="message-error"
        rows={5}
      />,
    );
    const textarea = tagOf(html, 'textarea');
    expect(textarea).toContain('id="f-message"');
    expect(textarea).toContain('name="message"');
    expect(textarea).toContain('rows="5"');
    expect(textarea).toContain('aria-invalid="true"');
    expect(textarea).toContain('aria-describedby="f-message-error"');
    expect(html).toContain('>Hello</textarea>');
    expect(html).toContain('data-testid="message-error"');
  });
});
