// Tags from content over HTTP: a `###### tags:` line sets the tags when the request gives none;
// explicit tags win (as an explicit title does).
import { describe, expect, it } from 'vitest';
import { newUser } from '../support/identity.ts';
import { call, createNote } from './helpers.ts';

describe('tags from the content', () => {
  it('create and update take the tags line unless the request gives tags', async () => {
    const me = await newUser('Tagger');
    const fromContent = await createNote(me.token, { content: '# T\n###### tags: `meeting` `notes`\n' });
    expect(fromContent.tags).toEqual(['meeting', 'notes']);
    expect((await createNote(me.token, '###### tags: `from-string-body`')).tags).toEqual([
      'from-string-body',
    ]);
    const explicit = await createNote(me.token, { content: '###### tags: `ignored`', tags: ['chosen'] });
    expect(explicit.tags).toEqual(['chosen']);
    expect((await createNote(me.token, { content: 'no tags line' })).tags).toEqual([]);

    const patch = (body: unknown) => call('PATCH', `/v1/notes/${fromContent.id}`, { token: me.token, body });
    expect((await patch({ content: '###### tags: `changed`' })).body).toMatchObject({
      tags: ['changed'],
      tagsUpdatedAt: expect.any(Number),
    });
    expect((await patch({ content: 'the line is gone' })).body.tags).toEqual(['changed']);
    expect((await patch({ content: '###### tags: `line`', tags: ['explicit'] })).body.tags).toEqual([
      'explicit',
    ]);
    expect((await patch({ title: 'no content change' })).body.tags).toEqual(['explicit']);
  });
});
