/** Scheduled jobs (`moat cron`): expressions, the scheduler and its lock, running a job as a -p process, the model's Schedule tool. */
export { parseSchedule, CronExpressionError, type Schedule } from './schedule.ts';
export { Scheduler, systemClock, LATE_AFTER_MS, type Clock, type JobRunner, type RunOutcome, type SchedulerOptions } from './scheduler.ts';
export { serve, takeLock, SchedulerLockedError, LOCK_STALE_MS, type ServeOptions } from './serve.ts';
export { processRunner, runArgs } from './process-runner.ts';
export { addJob, resumeJob, JobInputSchema, JobError, type JobInput } from './jobs.ts';
export { scheduleTool, SCHEDULE_TOOL } from './schedule-tool.ts';
export { serviceUnit, SERVICE_NAME } from './service-unit.ts';
export { exportJobs } from './export.ts';
export { EXPORT_TARGETS, type ExportTarget, type ExportOptions, type ExportedFile } from './export-options.ts';
