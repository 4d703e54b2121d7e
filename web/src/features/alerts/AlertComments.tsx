import { Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { COMMENT_MAX, commentError } from '../../../../core/alerts/triage';
import { formatDateTimeUtc } from '../../lib/format';
import type { AlertActivityFieldsFragment } from '../../lib/graphql/types';
import { Markdown } from './Markdown';

export interface AlertCommentsProps {
  readonly comments: readonly AlertActivityFieldsFragment[];
  readonly nameOf: (userId: string) => string;
  /** AlertModify: a comment can be added. */
  readonly canComment: boolean;
  /** Adds a comment; resolves true when it was saved (the field empties). */
  readonly onAdd: (text: string) => Promise<boolean>;
}

/** An alert's comments (markdown, rendered as text elements, never as HTML) and a field to add one. */
export function AlertComments({ comments, nameOf, canComment, onAdd }: AlertCommentsProps) {
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const problem = commentError(text);
  const submit = async () => {
    setTouched(true);
    if (problem) return;
    setBusy(true);
    try {
      if (await onAdd(text)) {
        setText('');
        setTouched(false);
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Comments
      </Title>
      {comments.length === 0 && (
        <Text size="sm" c="dimmed">
          No comments yet.
        </Text>
      )}
      {comments.map((c) => (
        <Card key={c.id} withBorder radius="md" p="sm" aria-label="Comment">
          <Group gap="xs" mb={4}>
            <Text size="sm" fw={600}>
              {c.actorName ?? (c.actorId ? nameOf(c.actorId) : 'Caracal')}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTimeUtc(c.at)}
            </Text>
          </Group>
          <Markdown text={c.text ?? ''} />
        </Card>
      ))}
      {canComment && (
        <Stack gap="xs">
          <Textarea
            label="Add a comment"
            description={`Markdown: **bold**, *italic*, \`code\`, lists and [links](https://...). At most ${COMMENT_MAX.toLocaleString('en-US')} characters.`}
            minRows={4}
            resize="vertical"
            value={text}
            error={touched ? problem : null}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button loading={busy} onClick={() => void submit()}>
              Comment
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
