/** [G3]: any path the router does not know. */
export function NotFoundScreen() {
  return (
    <section className="flex min-h-[50vh] items-center justify-center">
      <div className="card w-full max-w-md bg-base-100 shadow">
        <div className="card-body">
          <h1 className="card-title text-2xl text-error">404 Page Not Found</h1>
          <p className="text-base-content/70">Did you forget to add the page to the router?</p>
        </div>
      </div>
    </section>
  );
}
