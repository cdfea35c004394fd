import { BASELINE_FORMAT, type Baseline } from './baseline.js';

/**
 * The baseline Fleetdeck ships: what the interface lets us see of a system's security and data
 * protection, each check with the reason an auditor asks for it. Data, not code: it is what
 * `fleetdeck compliance --print-baseline` writes, the starting point of an admin's own file, and
 * it passes the same schema as any file (tested).
 */
export const SECURE_BASELINE: Baseline = {
  format: BASELINE_FORMAT,
  name: 'fleetdeck-secure',
  version: '1.0.0',
  description: 'Secure configuration of a storage system as the management interface shows it.',
  maxAgeHours: 24,
  checks: [
    {
      id: 'users-two-step',
      title: 'Every user signs in with two-step authentication',
      rationale:
        'A management account can delete volumes and their snapshots. A password alone is phished, reused or guessed; a second factor stops a stolen password from becoming a wiped system.',
      severity: 'high',
      rule: { read: 'GET /users/list', items: 'Data', every: { field: 'TwoStepAuthenticationEnabled', equals: true } },
    },
    {
      id: 'support-tunnel-off',
      title: 'The vendor support tunnel is closed on every node',
      rationale:
        'An open support tunnel is remote access to the node from outside the admins’ control. It is opened for a support case and closed when the case ends; one left open is a standing way in.',
      severity: 'high',
      rule: { read: 'GET /nodes/support/tunnel/status', items: 'Data', every: { field: 'SupportTunnelStatus', matches: '^\\s*(disabled|off|inactive|closed)\\b' } },
      fix: { op: 'PUT /nodes/support/tunnel/disable', body: { Node: '{item}' }, title: 'Close the support tunnel of each node where it is open' },
    },
    {
      id: 'target-chap',
      title: 'iSCSI targets require CHAP',
      rationale:
        'Without target CHAP any initiator that reaches the data network can log in to the targets and read or overwrite a volume mapped to a host it claims to be.',
      severity: 'high',
      rule: {
        read: 'GET /nodes/list',
        items: 'Data',
        every: { field: 'TargetChap.ChapName', present: true },
        when: { read: 'GET /hosts/list', items: 'Data', some: { field: 'Iqn', present: true } },
      },
    },
    {
      id: 'host-chap',
      title: 'Every iSCSI host has a CHAP secret',
      rationale:
        'Host CHAP lets the host check it talks to the real target, and binds the host’s IQN to a secret, so that a machine copying the IQN is not given the host’s volumes.',
      severity: 'medium',
      rule: { read: 'GET /hosts/list', items: 'Data', where: { field: 'Iqn', present: true }, every: { field: 'ChapSecret', present: true } },
    },
    {
      id: 'isns-access-control',
      title: 'iSNS discovery is access-controlled',
      rationale:
        'With an iSNS server but no access control every initiator registered with it discovers every target, which tells an intruder what to attack and lets a misconfigured host log in to the wrong volume.',
      severity: 'medium',
      rule: { read: 'GET /nodes/list', items: 'Data', where: { field: 'Isns.IsnsAddress', present: true }, every: { field: 'Isns.AccessControl', equals: true } },
    },
    {
      id: 'email-validates-certificate',
      title: 'Alert e-mail checks the mail server’s certificate',
      rationale:
        'Alert mail carries system names, addresses and failure details. Without certificate validation anyone between the system and the mail server can read it, or silently drop the alert that says a drive failed.',
      severity: 'medium',
      rule: {
        read: 'GET /notifications/settings/show',
        items: 'EmailSettings',
        label: 'MailServerAddress',
        where: { field: 'MailServerAddress', present: true },
        every: { field: 'ValidateCertificate', equals: true },
      },
      fix: { op: 'PUT /notifications/settings/email/edit', body: { EnableCertificateValidation: true }, title: 'Turn on certificate validation of alert e-mail' },
    },
    {
      id: 'notification-target-warning',
      title: 'Warnings and worse reach someone',
      rationale:
        'A failing drive, a pool running out of space or a node taken over is announced as a notification. Unless an enabled target receives warnings (level 3) and above, nobody hears of it until the second failure.',
      severity: 'high',
      rule: {
        read: 'GET /notifications/settings/show',
        items: 'NotificationTargets',
        some: [
          { field: 'IsEnabled', equals: true },
          { field: 'MinEventLevel', atMost: 3 },
        ],
      },
    },
    {
      id: 'anomaly-detection-on',
      title: 'Anomaly detection watches for sudden change',
      rationale:
        'Ransomware rewrites data fast. Anomaly detection with a time frame of at least a day and a threshold of at most 50 % notices an abnormal change in time to keep the snapshots taken before it.',
      severity: 'medium',
      rule: {
        read: 'GET /settings/anomaly_detection/show',
        every: [
          { field: 'TimeframeDays', atLeast: 1 },
          { field: 'AbnormalChangePercentage', atLeast: 1 },
          { field: 'AbnormalChangePercentage', atMost: 50 },
        ],
      },
      fix: { op: 'PUT /settings/anomaly_detection/edit', body: { Timeframe_days: 1, ChangeInPercentage: 50 }, title: 'Set anomaly detection to a one-day time frame and a 50 % threshold' },
    },
    {
      id: 'volumes-encrypted',
      title: 'Every volume is encrypted at rest',
      rationale:
        'An unencrypted volume’s data leaves the site on every drive replaced under warranty or lost in transport. Encryption makes a drive that leaves the building unreadable.',
      severity: 'high',
      rule: { read: 'GET /applications/list', items: 'Data.Volumes', label: 'Volume', every: { field: 'Encrypted', equals: true } },
    },
    {
      id: 'sed-password-supplied',
      title: 'Self-encrypting drives are locked with a password',
      rationale:
        'A self-encrypting drive protects data only once it has a password: until then it unlocks itself in any machine. Where a system has such drives, each node must have the SED password supplied.',
      severity: 'medium',
      rule: {
        read: 'GET /nodes/list',
        items: 'Data',
        every: { field: 'IsSEDPasswordSupplied', equals: true },
        when: { read: 'GET /resources/list', items: 'Data.Drives', some: { field: 'SelfEncryptingDrive', in: ['Locked', 'Unlocked'] } },
      },
    },
    {
      id: 'snapshot-schedules',
      title: 'Every consistency group has a snapshot schedule',
      rationale:
        'Scheduled snapshots are the recovery point after a deletion, a bad change or ransomware. A group without a schedule has only the snapshots someone remembered to take.',
      severity: 'medium',
      rule: { read: 'GET /applications/list', items: 'Data.ConsistencyGroups', label: 'Id', every: { field: 'SnapshotScheduler', present: true } },
    },
    {
      id: 'replication-in-sync',
      title: 'Replicated volumes are in sync with their remote copy',
      rationale:
        'A replica that is still initializing or catching up is not a copy to fail over to. A pair that stays out of sync means a disaster loses the data written since.',
      severity: 'medium',
      rule: {
        read: 'GET /replication/list',
        items: 'Data.Volumes.Replication.ReplicationPairs',
        label: 'RemoteVolName',
        every: { field: 'ConnectionStatus', equals: 'InSync' },
      },
    },
    {
      id: 'pool-free-space',
      title: 'Every pool keeps at least 20 % free',
      rationale:
        'A full pool stops writes to every volume in it. Below 20 % free there is no room for a rebuild after a drive failure or a burst of snapshots, and the time left to add capacity is short.',
      severity: 'high',
      rule: { read: 'GET /monitoring/capacity/provisioning', items: 'Data', label: 'PoolName', every: { field: 'FreeSpaceInPercentage', atLeast: 20 } },
    },
  ],
};
