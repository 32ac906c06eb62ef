/**
 * The eight courses' text (spec section 3, "Course"), checked against the schema by
 * ./catalogue.ts when it loads.
 *
 * Honesty (docs/decisions/027-course-catalogue.md): we hold no reviews and no enrolments, so
 * `rating` is our editor's rating and `students` is the class size (capacity), never a count of
 * buyers; `instructor` names the team that writes the course, not an invented person; the two
 * vendor courses prepare for the vendor's exam and say the certificate is ours, not the vendor's.
 */
import type { Course, CourseSlug } from './course.ts';
import { courseImagePath } from './images.ts';

type CourseText = Omit<Course, 'slug' | 'mainImage' | 'sideImage' | 'instructorImg'>;

function course(slug: CourseSlug, text: CourseText): Course {
  return {
    slug,
    ...text,
    mainImage: courseImagePath(slug, 'main', 2),
    sideImage: courseImagePath(slug, 'side', 2),
    instructorImg: courseImagePath(slug, 'avatar', 2),
  };
}

export const COURSE_DATA: Course[] = [
  course('ai-for-beginners', {
    name: 'AI for Beginners',
    tag: 'Technology',
    shortDesc:
      'Understand what today’s AI tools can and cannot do, and use them safely for writing, research and everyday work.',
    description: [
      'A plain-language introduction to artificial intelligence for people who use a computer every day but have never studied it. You learn how chat assistants and image generators work underneath, why they sometimes make things up, and how to get useful, checkable results from them.',
      'It is written for creators, small-business owners, students and office workers. No programming and no mathematics beyond school level are needed.',
    ],
    learn:
      'How machine learning turns examples into predictions, how large language models produce text, how to write prompts that give reliable answers, and how to check, cite and protect the data you put in.',
    price: 449,
    list: [
      'What AI, machine learning and large language models are',
      'Writing clear prompts and refining the answer step by step',
      'Spotting made-up facts and checking sources',
      'Using AI for captions, summaries and first drafts',
      'Privacy: what never to paste into a chat assistant',
      'Bias, copyright and fair use in plain words',
    ],
    benefits: [
      'Save time on routine writing without losing your own voice',
      'Judge AI claims and tools with confidence',
      'A short project you can show: an AI-assisted content plan',
    ],
    instructor: 'Boostly Academy · AI team',
    lesson: 12,
    duration: '4 weeks',
    workloadHours: 12,
    students: 40,
    language: 'English',
    deadline: 'Finish within 3 months of starting',
    skillLevel: 'Beginner',
    certification: 'Boostly Academy certificate of completion',
    rating: '4.5',
  }),
  course('project-management', {
    name: 'Project Management Essentials',
    tag: 'Business',
    shortDesc:
      'Plan, run and close projects on time: scope, schedules, budgets, risks and the people who make them work.',
    description: [
      'A practical course in running projects from the first idea to the handover. It follows one sample project through every stage, so each tool is learned where it is actually used.',
      'For new project coordinators, team leads who inherited a project, and freelancers who manage client work. It covers the common ground of the PMBOK guide and PRINCE2 without tying you to either.',
    ],
    learn:
      'How to turn a vague request into a scope statement, break it into a work breakdown structure, schedule it with dependencies, estimate cost, track progress, manage risk and change, and close the project with a lessons-learned review.',
    price: 999,
    list: [
      'Project charters and scope statements',
      'Work breakdown structures and estimates',
      'Gantt charts, dependencies and the critical path',
      'Budgets and earned value basics',
      'Risk registers and change control',
      'Stakeholder updates that people read',
    ],
    benefits: [
      'Templates for charter, plan, risk register and status report',
      'A complete sample project you can adapt to your own work',
      'Good groundwork for a later CAPM or PRINCE2 Foundation exam',
    ],
    instructor: 'Boostly Academy · Business team',
    lesson: 18,
    duration: '6 weeks',
    workloadHours: 24,
    students: 30,
    language: 'English',
    deadline: 'Finish within 6 months of starting',
    skillLevel: 'Beginner',
    certification: 'Boostly Academy certificate of completion',
    rating: '4.5',
  }),
  course('cybersecurity', {
    name: 'Cybersecurity Fundamentals',
    tag: 'Technology',
    shortDesc:
      'Protect your accounts, devices and small business from the attacks that actually happen: phishing, weak passwords and scams.',
    description: [
      'Most breaches start with a stolen password or a convincing e-mail. This course teaches the defences that stop them, and the basic ideas of networks, encryption and threat modelling behind them.',
      'For anyone who runs social-media accounts, a shop or a small office, and for beginners who are thinking about a career in security. Hands-on exercises use only free tools.',
    ],
    learn:
      'How attackers take over accounts and how to stop them: password managers, two-factor authentication, recognising phishing, safe Wi-Fi, backups, updates, and what to do in the first hour after an account is hacked.',
    price: 1199,
    list: [
      'The common attacks: phishing, credential stuffing, SIM swaps',
      'Password managers and two-factor authentication',
      'Encryption and HTTPS explained without maths',
      'Securing phones, laptops and home routers',
      'Backups that survive ransomware',
      'An incident checklist for a hacked account',
    ],
    benefits: [
      'A security checklist for your own accounts and devices',
      'Confidence to spot a scam before you click',
      'A foundation for CompTIA Security+ level study',
    ],
    instructor: 'Boostly Academy · Security team',
    lesson: 16,
    duration: '5 weeks',
    workloadHours: 20,
    students: 30,
    language: 'English',
    deadline: 'Finish within 6 months of starting',
    skillLevel: 'Beginner',
    certification: 'Boostly Academy certificate of completion',
    rating: '5',
  }),
  course('english-for-career-development', {
    name: 'English for Career Development',
    tag: 'Language',
    shortDesc: 'Write, speak and present in clear professional English: CVs, interviews, e-mails and meetings.',
    description: [
      'A course for non-native speakers with everyday English who want to use it with confidence at work. Each lesson is built around a real situation: applying for a job, introducing yourself, writing to a client, taking part in a meeting.',
      'For job seekers, graduates and professionals at about B1 level (you can follow a simple conversation and write short messages).',
    ],
    learn:
      'How to write a CV and cover letter in English, answer common interview questions, write short and polite e-mails, take part in meetings and calls, and give a five-minute presentation.',
    price: 649,
    list: [
      'CVs and cover letters that get read',
      'Interview answers with the STAR method',
      'E-mail phrases for requests, follow-ups and apologies',
      'Speaking up in meetings and on calls',
      'Short presentations with clear structure',
      'Common grammar and word-choice mistakes, and how to fix them',
    ],
    benefits: [
      'A polished CV and cover letter by the end of the course',
      'A phrase bank for e-mails and meetings',
      'Recorded practice interviews to track your progress',
    ],
    instructor: 'Boostly Academy · Language team',
    lesson: 20,
    duration: '8 weeks',
    workloadHours: 30,
    students: 20,
    language: 'English',
    deadline: 'Finish within 6 months of starting',
    skillLevel: 'Intermediate',
    certification: 'Boostly Academy certificate of completion',
    rating: '4.5',
  }),
  course('ibm-data-science', {
    name: 'IBM Data Science Certificate Prep',
    tag: 'Data',
    shortDesc:
      'Prepare for the IBM Data Science Professional Certificate: Python, SQL, data analysis and your first models.',
    description: [
      'A guided study companion for the IBM Data Science Professional Certificate. We follow its topics in a sensible order, explain the hard parts again in simpler words, and give extra practice before each of IBM’s graded assessments.',
      'For learners who have started, or plan to start, the IBM certificate and want structure and help. The IBM certificate itself is earned on IBM’s programme; this course is independent and not affiliated with IBM.',
    ],
    learn:
      'Python for data work with pandas and NumPy, SQL queries, data cleaning and visualisation, the basics of regression and classification with scikit-learn, and how to present a data project.',
    price: 1499,
    list: [
      'Python, Jupyter notebooks and pandas',
      'SQL for analysis: joins, grouping, subqueries',
      'Cleaning and visualising real data sets',
      'Regression, classification and model evaluation',
      'A capstone-style project with a written report',
      'Study plan matched to the IBM certificate’s courses',
    ],
    benefits: [
      'A week-by-week plan alongside the IBM programme',
      'Extra exercises with worked solutions',
      'A portfolio project you can put on GitHub',
    ],
    instructor: 'Boostly Academy · Data team',
    lesson: 30,
    duration: '12 weeks',
    workloadHours: 60,
    students: 25,
    language: 'English',
    deadline: 'Finish within 12 months of starting',
    skillLevel: 'Beginner',
    certification:
      'Boostly Academy certificate of completion (the IBM certificate is earned separately on IBM’s programme)',
    rating: '4',
  }),
  course('google-cloud-data-engineer', {
    name: 'Google Cloud Data Engineer Exam Prep',
    tag: 'Data',
    shortDesc:
      'Prepare for the Google Cloud Professional Data Engineer exam: BigQuery, Dataflow, Pub/Sub and data pipeline design.',
    description: [
      'An exam preparation course for the Google Cloud Professional Data Engineer certification. It walks through each section of Google’s exam guide with diagrams, design scenarios and practice questions in the exam’s style.',
      'For data analysts and engineers with some SQL and cloud experience. The certification exam is booked and taken separately with Google; this course is independent and not affiliated with Google.',
    ],
    learn:
      'How to design batch and streaming pipelines on Google Cloud, choose between BigQuery, Bigtable, Cloud SQL and Cloud Storage, build with Dataflow and Pub/Sub, secure and monitor data systems, and put machine-learning models into pipelines.',
    price: 1499,
    list: [
      'Designing data processing systems',
      'BigQuery: modelling, partitioning and cost control',
      'Streaming with Pub/Sub and Dataflow',
      'Choosing the right storage service',
      'Security, IAM and data governance',
      'Practice questions for every exam section',
    ],
    benefits: [
      'A study plan mapped to Google’s exam guide',
      'Practice questions with explained answers',
      'Design scenarios you can reuse at work',
    ],
    instructor: 'Boostly Academy · Data team',
    lesson: 24,
    duration: '10 weeks',
    workloadHours: 50,
    students: 25,
    language: 'English',
    deadline: 'Finish within 12 months of starting',
    skillLevel: 'Advanced',
    certification:
      'Boostly Academy certificate of completion (the Google Cloud certification is a separate exam with Google)',
    rating: '4.5',
  }),
  course('leadership-skills', {
    name: 'Leadership Skills',
    tag: 'Business',
    shortDesc: 'Lead a small team well: set goals, give feedback, delegate and keep people motivated through change.',
    description: [
      'The course for the first years as a team lead or manager. It turns leadership from a personality trait into habits you can practise: one-to-ones, clear goals, useful feedback, good delegation and calm handling of conflict.',
      'For new managers, senior team members who lead projects, and founders of small businesses who now have people working with them.',
    ],
    learn:
      'How to set goals people understand, run one-to-one meetings, give and receive feedback, delegate without losing track, handle conflict, make decisions in a group, and look after your own workload.',
    price: 799,
    list: [
      'From doing the work to leading the work',
      'Goals and expectations that are clear to everyone',
      'One-to-ones and feedback conversations',
      'Delegation and accountability',
      'Conflict, difficult conversations and change',
      'Building trust in remote and hybrid teams',
    ],
    benefits: [
      'Conversation guides you can use the next day',
      'A personal leadership plan reviewed by the course team',
      'Peer practice in small groups',
    ],
    instructor: 'Boostly Academy · Business team',
    lesson: 14,
    duration: '5 weeks',
    workloadHours: 15,
    students: 20,
    language: 'English',
    deadline: 'Finish within 3 months of starting',
    skillLevel: 'All levels',
    certification: 'Boostly Academy certificate of completion',
    rating: '4',
  }),
  course('agile-jira', {
    name: 'Agile with Jira',
    tag: 'Business',
    shortDesc: 'Run Scrum and Kanban in Jira: boards, backlogs, sprints, workflows and reports that help the team.',
    description: [
      'A hands-on course in agile ways of working and the tool many teams use for them. You set up a Jira project from scratch, plan and run sprints, and learn which reports answer which questions.',
      'For team members, Scrum masters and product owners who are new to Jira or who use only a fraction of it. A free Jira plan is enough for every exercise. Jira is a trademark of Atlassian; this course is independent.',
    ],
    learn:
      'The Scrum and Kanban basics, writing user stories with acceptance criteria, organising a backlog, planning and running sprints in Jira, customising workflows and boards, and reading burndown, velocity and cumulative flow charts.',
    price: 899,
    list: [
      'Scrum roles, events and artefacts',
      'Kanban boards and work-in-progress limits',
      'User stories, epics and acceptance criteria',
      'Sprint planning, review and retrospective in Jira',
      'Custom workflows, filters and JQL',
      'Burndown, velocity and cumulative flow reports',
    ],
    benefits: [
      'A ready-made Jira project template for your team',
      'JQL cheat sheet and report guide',
      'Good groundwork for a Scrum Master certification',
    ],
    instructor: 'Boostly Academy · Business team',
    lesson: 15,
    duration: '4 weeks',
    workloadHours: 16,
    students: 30,
    language: 'English',
    deadline: 'Finish within 6 months of starting',
    skillLevel: 'Beginner',
    certification: 'Boostly Academy certificate of completion',
    rating: '4.5',
  }),
];
