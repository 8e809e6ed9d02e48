/** [D8]: only the static entry; 'View All' has nothing more to show yet. */
export function RecentActivity() {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="dashboard-recent-activity">
      <div className="card-body">
        <div className="flex items-center justify-between">
          <h2 id="dashboard-recent-activity" className="card-title">
            Recent Activity
          </h2>
          <button type="button" className="btn btn-ghost btn-sm">
            View All
          </button>
        </div>
        <ul>
          <li className="flex items-start gap-3 py-2">
            <span className="status status-primary mt-2" aria-hidden="true" />
            <div>
              <p className="font-medium">System initialized</p>
              <p className="text-sm text-base-content/60">Just now</p>
            </div>
          </li>
        </ul>
      </div>
    </section>
  );
}
