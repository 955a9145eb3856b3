// /test/log/cmdTask: every task (batch commands, and the other many-device work as it arrives) in the shared
// task list and progress view.
import { TaskList } from '../../tasks/TaskList.tsx';

export default function CmdTaskPage() {
  return <TaskList />;
}
