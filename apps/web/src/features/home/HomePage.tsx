// /index/home: live monitoring (main:monitor), built in features/monitor.
export { default } from '../monitor/MonitorPage.tsx';
