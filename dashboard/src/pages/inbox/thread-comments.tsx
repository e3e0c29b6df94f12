import { useQuery } from '../../api/use-query';
import { graphql } from '../../graphql';
import { RelativeTime } from '../../ui/relative-time';
import { ErrorNotice, Loading } from '../../ui/notice';

const ThreadCommentsDocument = graphql(`
  query ThreadComments($id: ID!) {
    mention(id: $id) {
      id
      comments { id url text publishedAt author { name handle url } }
    }
  }
`);

/** The comments Earshot read in the thread under a mention (spec 2.1.2), newest first; read when the thread is opened. */
export function ThreadComments({ mentionId }: { mentionId: string }) {
  const thread = useQuery(ThreadCommentsDocument, { id: mentionId });
  if (!thread.data) return thread.error ? <ErrorNotice error={thread.error} /> : <Loading label="Loading the thread" />;
  const { comments } = thread.data.mention;
  if (comments.length === 0) return <p class="muted">No comments read in this thread yet (a keyword reads them under relevant mentions when its comments are on).</p>;
  return (
    <ol class="thread" aria-label="Comments, newest first">
      {comments.map((comment) => (
        <li key={comment.id}>
          <p class="mention-meta">
            <a href={comment.author.url} target="_blank" rel="noopener noreferrer">
              {comment.author.name}
            </a>
            {' · '}
            <a href={comment.url} target="_blank" rel="noopener noreferrer">
              <RelativeTime iso={comment.publishedAt} />
            </a>
          </p>
          <p>{comment.text}</p>
        </li>
      ))}
    </ol>
  );
}
