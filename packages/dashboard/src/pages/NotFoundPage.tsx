import { Link } from 'wouter';

export function NotFoundPage() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        Nothing lives at this address. Go to the <Link href="/runs">runs</Link>.
      </p>
    </section>
  );
}
