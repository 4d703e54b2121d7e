// @vitest-environment jsdom
import { Notifications } from '@mantine/notifications';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEND_USER_FEEDBACK_MUTATION } from '../../web/src/screens/Support/feedback.operations';
import { FeedbackModal } from '../../web/src/features/feedback/FeedbackModal';
import { SupportPage } from '../../web/src/screens/Support/SupportPage';
import { useSendFeedback } from '../../web/src/screens/Support/useSendFeedback';
import { renderWithApi } from './support/shell';

afterEach(cleanup);

type Sent = Record<string, unknown>;

function feedbackMock(answer: 'ok' | 'invalid', sent: Sent[]) {
  return {
    request: {
      query: SEND_USER_FEEDBACK_MUTATION,
      variables: (variables: Sent) => {
        sent.push(variables);
        return true;
      },
    },
    result:
      answer === 'ok'
        ? { data: { sendUserFeedback: { __typename: 'FeedbackResult', id: 'fb-1' } } }
        : { errors: [{ message: 'text: Must be at most 5000 characters', extensions: { errorType: 'InvalidInput' } }] },
  };
}

/** The modal as the Support page opens it: sending through the API. */
function Feedback({ onClose }: { readonly onClose: () => void }) {
  return <FeedbackModal opened onClose={onClose} onSend={useSendFeedback()} />;
}

function renderModal(answer: 'ok' | 'invalid' = 'ok') {
  const sent: Sent[] = [];
  const onClose = vi.fn();
  renderWithApi(
    <>
      <Notifications />
      <Feedback onClose={onClose} />
    </>,
    { mocks: [feedbackMock(answer, sent)] },
  );
  return { sent, onClose };
}

const textBox = () => screen.getByRole('textbox', { name: 'Feedback' });
const sendButton = () => screen.getByRole('button', { name: 'Send Feedback' });

describe('the Send Feedback modal', () => {
  it('requires the text, with the rule from core', async () => {
    renderModal();
    expect(sendButton().hasAttribute('disabled')).toBe(true);
    fireEvent.change(textBox(), { target: { value: '   ' } });
    fireEvent.blur(textBox());
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(sendButton().hasAttribute('disabled')).toBe(true);
  });

  it('sends the feature, the text, no usefulness, the page and the screen width', async () => {
    Object.defineProperty(window.screen, 'width', { configurable: true, value: 1728 });
    const { sent, onClose } = renderModal();
    fireEvent.change(textBox(), { target: { value: '  The breadcrumbs help.  ' } });
    await waitFor(() => expect(sendButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(sendButton());
    expect(await screen.findByText('Feedback received. Thank you!')).toBeTruthy();
    expect(sent).toEqual([
      {
        input: {
          feature: { name: 'General' },
          feedback: { text: 'The breadcrumbs help.' },
          usefulness: null,
          locationUrl: window.location.href,
          screenWidth: 1728,
        },
      },
    ]);
    expect(onClose).toHaveBeenCalled();
  });

  it('sends the usefulness the user chose, 1 to 5', async () => {
    const { sent } = renderModal();
    fireEvent.change(textBox(), { target: { value: 'Useful.' } });
    fireEvent.keyDown(screen.getByRole('radio', { name: '4 of 5' }), { key: 'Enter' });
    await waitFor(() => expect(sendButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(sendButton());
    await screen.findByText('Feedback received. Thank you!');
    expect((sent[0]?.input as Sent).usefulness).toBe(4);
  });

  it('says when the feedback could not be sent, and keeps it', async () => {
    const { onClose } = renderModal('invalid');
    fireEvent.change(textBox(), { target: { value: 'Keep me' } });
    await waitFor(() => expect(sendButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(sendButton());
    expect(await screen.findByText('Failed to send feedback')).toBeTruthy();
    expect(screen.getByText('Text: Must be at most 5000 characters')).toBeTruthy();
    expect((textBox() as HTMLTextAreaElement).value).toBe('Keep me');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('the Support page', () => {
  it('lists the support links and opens Send Feedback', async () => {
    renderWithApi(<SupportPage />);
    expect(screen.getByRole('link', { name: /Documentation/ }).getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: /Report a problem/ })).toBeTruthy();
    expect(screen.getByText('0.0.0-test')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send Feedback' }));
    expect(await screen.findByRole('dialog', { name: 'Send Feedback' })).toBeTruthy();
  });
});
