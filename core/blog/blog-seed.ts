/**
 * The blog a fresh install starts with (decision 018): the two categories the blog header names and
 * posts written for this store's buyers. Honest by rule: no promise beyond the store's own
 * (decision 004: a 30-day refill on follower drops, a full refund when an order is not delivered),
 * and no claim about how a platform works that its own help pages do not support. Images are the
 * SVG illustrations under public/images/blog/ (800×450).
 */
import type { BlogSeed } from './blog.ts';

const INSTAGRAM_UPDATES = 'Instagram Updates';
const SOCIAL_MEDIA_UPDATES = 'Social Media Updates';

const image = (name: string) => ({ url: `/images/blog/${name}.svg`, width: 800, height: 450 });

export const blogSeed: BlogSeed = {
  categories: [INSTAGRAM_UPDATES, SOCIAL_MEDIA_UPDATES],
  posts: [
    {
      title: 'How to Grow an Instagram Account Safely',
      slug: 'grow-instagram-account-safely',
      category: INSTAGRAM_UPDATES,
      image: image('grow-instagram-safely'),
      daysAgo: 2,
      description: `
<p>Most Instagram accounts that run into trouble do not get there through one big mistake. They get there through a string of small shortcuts: a third-party app that asked for the password, a burst of follows and unfollows, a giveaway that attracted accounts that never look at a post again. Growing safely is mostly about avoiding those shortcuts while you do the slow work that actually builds an audience.</p>
<h2>Protect the account before you grow it</h2>
<p>An account that gets taken over cannot grow at all, so start with the basics. They take ten minutes and they matter more than any posting schedule.</p>
<ul>
<li>Turn on two-factor authentication in the Accounts Center, preferably with an authenticator app rather than text messages.</li>
<li>Never give your password to a growth service, a "verification" form or a direct message that claims to be from Instagram. A legitimate service only needs your public username or a post link.</li>
<li>Review the apps and websites connected to your account and remove the ones you no longer use.</li>
<li>Keep the e-mail address and phone number on the account current, so you can recover it if something goes wrong.</li>
</ul>
<h2>Post for the people who already follow you</h2>
<p>Instagram has said publicly that it ranks posts differently on each surface (Feed, Stories, Reels, Explore), and that signals such as how likely people are to watch, like, share or save something all play a part. You cannot control those signals directly, but you can make content that earns them: a clear first second for Reels, captions that say something useful, carousels people want to save for later, and replies to the comments you get.</p>
<p>Consistency helps more than volume. Two good posts a week that you can keep up for a year beat a daily schedule you abandon after a month. Look at your Insights every few weeks, keep doing what your followers respond to, and quietly drop the formats they ignore.</p>
<h2>Grow at a natural pace</h2>
<p>Sudden spikes are what automated systems look for. Mass following and unfollowing, dozens of identical comments, or hundreds of likes sent from one device in a few minutes can all lead to temporary action blocks. The same logic applies to anything you buy: if you use a growth service, choose gradual delivery over instant bursts, and spread orders out instead of stacking several at once.</p>
<h2>Where a boost fits, and where it does not</h2>
<p>Bought followers, likes or views are social proof, not an audience. They can make a new profile or a launch post look less empty, which may help real visitors take it seriously, but they will not buy your product or comment on your next post. Be honest with yourself about that trade-off, and keep the majority of your effort on content and community.</p>
<p>If you do order from us, we only ever ask for your username or a post link, never your password, and your profile needs to be public while the order runs. Follower orders come with a 30-day refill if the count drops, and an order we cannot deliver is refunded in full.</p>
<h2>A simple weekly routine</h2>
<ul>
<li>Plan two or three posts around questions your audience actually asks.</li>
<li>Spend fifteen minutes a day replying to comments and messages.</li>
<li>Share one behind-the-scenes Story a day to stay visible to existing followers.</li>
<li>Check Insights once a week and write down one thing to try next week.</li>
</ul>
<p>None of this is glamorous, but it compounds. Accounts that grow steadily and stay secure are the ones still growing a year from now.</p>
`,
    },
    {
      title: 'Spotting Fake-Follower Risks Before They Hurt Your Account',
      slug: 'spotting-fake-follower-risks',
      category: INSTAGRAM_UPDATES,
      image: image('fake-follower-risks'),
      daysAgo: 6,
      description: `
<p>Every growth service, including ours, delivers numbers rather than relationships. That is worth saying plainly, because the difference between a helpful boost and a harmful one usually comes down to whether the buyer understood what they were getting. This guide explains the risks of low-quality followers and how to recognise a service that ignores them.</p>
<h2>What "fake followers" really means</h2>
<p>The phrase covers a wide range. At one end are empty accounts with no profile picture, no posts and random usernames, created in bulk and often removed by the platform within days. At the other end are older, complete-looking profiles that follow many accounts but rarely engage. Neither group will become customers, but the first group is far more likely to disappear suddenly and to make your follower list look suspicious to anyone who scrolls through it.</p>
<h2>The real risks</h2>
<ul>
<li><strong>Engagement rate drops.</strong> Brands and collaborators often divide likes and comments by followers. Thousands of followers who never engage make that ratio look worse, not better.</li>
<li><strong>Follower counts fall.</strong> Platforms regularly remove accounts they consider inauthentic, and the followers those accounts gave you go with them.</li>
<li><strong>Platform rules.</strong> Instagram's terms and community guidelines prohibit artificially boosting engagement. Accounts that do it at scale can see reduced reach or restrictions. Any service that tells you there is zero risk is not being straight with you.</li>
<li><strong>Account security.</strong> The most serious damage comes from services that ask for your login. Handing over a password can lead to a stolen account, spam sent in your name, or a session the platform flags as suspicious.</li>
</ul>
<h2>Warning signs in a growth service</h2>
<ul>
<li>It asks for your password or a login code. A real service needs only a username or a link.</li>
<li>It promises "real, active followers" that will like and comment on everything. Engagement cannot be guaranteed by anyone.</li>
<li>It offers enormous numbers delivered instantly for almost nothing.</li>
<li>It has no refund or refill terms, or they are hidden.</li>
<li>It has no way to contact a person when something goes wrong.</li>
</ul>
<h2>How to check your own follower list</h2>
<p>Open your follower list and scroll through a sample of recent followers. Look for accounts with no posts, no profile picture, usernames made of random letters and numbers, or that follow thousands of accounts while having a handful of followers themselves. A few are normal for any public account. A large block of them arriving on the same day is a sign that something pushed them your way.</p>
<p>You can remove followers you do not want from the list itself. Doing it gradually is better than removing hundreds at once.</p>
<h2>Our approach</h2>
<p>We deliver gradually, we never ask for a password, and we state our terms up front: a 30-day refill on follower drops and a full refund if an order is not delivered. We also tell you what we cannot promise: we cannot make anyone engage with your posts, and we cannot control what a platform decides to remove. Use a boost as a starting push, then let your content do the work.</p>
`,
    },
    {
      title: 'Instagram Reels: What Actually Helps a Reel Travel',
      slug: 'instagram-reels-what-helps-a-reel-travel',
      category: INSTAGRAM_UPDATES,
      image: image('instagram-reels'),
      daysAgo: 11,
      description: `
<p>Reels are the part of Instagram most likely to reach people who do not follow you yet. That makes them the best tool for growth and also the one surrounded by the most myths. Here is what Instagram itself has said about how Reels are recommended, and what that means for the Reels you make.</p>
<h2>How Reels are recommended</h2>
<p>According to Instagram's own explanations of ranking, Reels recommendations lean heavily on predictions about whether a viewer will watch a Reel all the way through, like it, share it, or visit the audio page to make their own. Shares, especially by direct message, are one of the strongest signals that a Reel is worth showing to more people. Follower count matters less here than on the Feed: a small account can reach a large audience with one Reel that people watch and pass on.</p>
<h2>The first two seconds</h2>
<p>Viewers decide very quickly whether to keep watching. Put the point of the Reel at the very start: show the result first, ask the question first, or start mid-action. Avoid slow logos, long introductions and "wait for it" openings that give nothing away.</p>
<h2>Make it easy to watch without sound</h2>
<ul>
<li>Add captions or on-screen text. Many people scroll with the sound off.</li>
<li>Keep important text away from the edges, where buttons and the caption cover it.</li>
<li>Use clear, well-lit footage; vertical 9:16 video fills the screen.</li>
</ul>
<h2>Originality counts</h2>
<p>Instagram has said it favours original content and may show fewer recommendations of Reels that are reposted from elsewhere, especially with another app's watermark. If you repurpose a TikTok, export it without the watermark or, better, edit a version made for Instagram. Reusing trending audio is fine; reposting someone else's video is not.</p>
<h2>Length and pacing</h2>
<p>There is no magic length. A Reel should be as long as its idea and no longer. Short Reels are easier to watch to the end, which helps completion; longer Reels work when every few seconds gives the viewer a reason to stay. If your analytics show most people leaving at the same moment, cut or tighten that part next time.</p>
<h2>What a views boost does and does not do</h2>
<p>Reels views from a growth service raise the number shown on the Reel. That can make a new Reel look less empty to the first real viewers who find it. It does not make people watch to the end or share it, and those are the signals Instagram says it relies on. Treat bought views as a cosmetic push for a Reel that already deserves attention, never as a substitute for making it good.</p>
<h2>A checklist before you post</h2>
<ul>
<li>Does the first second show why someone should keep watching?</li>
<li>Can it be understood with the sound off?</li>
<li>Is it original, without another app's watermark?</li>
<li>Is there a reason to share it with a friend?</li>
<li>Does the caption add context or a question people will answer?</li>
</ul>
<p>Post, wait a few days, and check which Reels kept viewers longest. Make more of those.</p>
`,
    },
    {
      title: 'What Counts as a YouTube View (and Why Your Count Pauses)',
      slug: 'what-counts-as-a-youtube-view',
      category: SOCIAL_MEDIA_UPDATES,
      image: image('youtube-views'),
      daysAgo: 16,
      description: `
<p>Few numbers cause as much confusion as the YouTube view count. Creators see it stall, jump, or even drop, and wonder whether something is broken. Usually nothing is. The count is doing exactly what YouTube designed it to do: reflect real people watching, and filter out the rest.</p>
<h2>YouTube's definition</h2>
<p>YouTube's help pages describe a view as a viewer intentionally starting to watch a video on their device. Views that its systems judge to be automated, or otherwise not from a real person choosing to watch, are not meant to count. YouTube does not publish the exact thresholds, deliberately, so that they are harder to game.</p>
<p>Shorts are counted differently. Since 2025, YouTube counts a Shorts view each time a Short starts to play or replay, while a separate "engaged views" figure, which excludes very brief plays, is still used in YouTube Analytics and for monetisation purposes. If your Shorts numbers look very different from your long-form numbers, this is part of the reason.</p>
<h2>Why the count seems to freeze</h2>
<p>View counts on new or fast-growing videos can update more slowly while YouTube validates where the views are coming from. The count may appear to stop for a while and then catch up. This is normal and does not mean the video is being penalised.</p>
<h2>Why views sometimes disappear</h2>
<p>YouTube keeps reviewing views after they are counted. If it later decides some of them were low quality, such as automated traffic or repeated reloads, it removes them and the public count goes down. This is the main reason to be careful with any service that promises huge numbers instantly.</p>
<h2>Views, watch time and what the algorithm cares about</h2>
<p>A view count on its own tells YouTube very little. Its recommendation system looks at what viewers do: whether they click when the video is shown to them, how long they keep watching, whether they come back, and what they say in surveys about videos they enjoyed. A video with fewer views but strong watch time often keeps getting recommended long after a video with a larger but shallower count has stopped.</p>
<ul>
<li>Make the title and thumbnail promise exactly what the video delivers.</li>
<li>Get to the point quickly; long introductions lose viewers.</li>
<li>Use chapters so viewers can find what they came for instead of leaving.</li>
<li>End screens and playlists keep viewers watching your next video.</li>
</ul>
<h2>Where bought views fit</h2>
<p>Views from a growth service raise the public count, which can help a new video look less empty to the first real visitors. They will not add meaningful watch time, and YouTube may remove views it considers low quality. That is why we deliver gradually and describe our views honestly: we never ask for your password, only the video link, and if an order is not delivered you get a full refund.</p>
<h2>The short version</h2>
<p>A view is a real person choosing to watch. The count can pause while it is checked and fall when YouTube removes views it does not trust. The number that matters most for growth is not the view count but how long people stay.</p>
`,
    },
    {
      title: "TikTok's For You Feed: The Basics Every Creator Should Know",
      slug: 'tiktok-for-you-feed-basics',
      category: SOCIAL_MEDIA_UPDATES,
      image: image('tiktok-algorithm'),
      daysAgo: 23,
      description: `
<p>TikTok is the platform where a brand-new account can reach a large audience with its first video. That is because the For You feed recommends videos based on how viewers respond to them, not mainly on who follows whom. Understanding the basics of how it works will save you from the myths that circulate every week.</p>
<h2>What TikTok says it looks at</h2>
<p>TikTok has published an overview of how For You recommendations work. It describes three broad groups of signals:</p>
<ul>
<li><strong>User interactions</strong>: the videos a person likes, shares, comments on, watches to the end or skips, and the accounts they follow.</li>
<li><strong>Video information</strong>: captions, sounds and hashtags, which help TikTok understand what a video is about.</li>
<li><strong>Device and account settings</strong>: language, country and device type, which carry less weight than how people actually behave.</li>
</ul>
<p>TikTok also says that follower count and whether an account has had high-performing videos before are not direct factors in recommendations. In practice, each new video gets a chance to find viewers on its own merits.</p>
<h2>Watch time comes first</h2>
<p>Whether people watch a video through, and especially whether they rewatch it, is one of the strongest indicators that a video is interesting. Tight editing matters: cut pauses, show the payoff early, and end before the viewer gets bored. A loop that flows back into the start invites a second watch.</p>
<h2>Hooks, sounds and text</h2>
<ul>
<li>Open with movement, a question or a bold statement in the first second.</li>
<li>Use sounds that fit the video; trending sounds can help TikTok place your video, but only if they suit it.</li>
<li>Add on-screen text for people watching without sound, and a caption that says what the video is about.</li>
<li>A few relevant hashtags help categorise a video. Dozens of generic ones do not.</li>
</ul>
<h2>Posting habits</h2>
<p>There is no secret best time that works for everyone. Check when your own followers are active in your analytics and post a little before that. Posting regularly gives you more chances to learn what works; deleting and reposting videos that started slowly usually does not help.</p>
<h2>Community guidelines matter</h2>
<p>Videos that break TikTok's community guidelines can be removed or made ineligible for the For You feed. Using copyrighted music outside TikTok's own library, misleading claims or unsafe stunts can limit a video's reach even if it is not removed. Read the guidelines once; it is time well spent.</p>
<h2>Where a boost fits</h2>
<p>Likes, views or followers from a growth service raise the public numbers on a video or profile. They do not make real viewers watch longer, and that is what the For You feed responds to. Use a boost, if at all, to give a strong video some initial social proof, never to prop up a weak one. We only need your username or video link, never your password, and an order we cannot deliver is refunded in full.</p>
<h2>In short</h2>
<p>Make videos people finish and want to share, describe them clearly, stay within the guidelines, and keep posting. The feed rewards what viewers do, not what creators wish they would do.</p>
`,
    },
    {
      title: 'How to Choose the Right Growth Package for Your Goal',
      slug: 'choosing-the-right-growth-package',
      category: SOCIAL_MEDIA_UPDATES,
      image: image('choosing-a-package'),
      daysAgo: 30,
      description: `
<p>Our store offers followers, likes, views and comments for Instagram, YouTube and TikTok, each in three plans and several sizes. That is a lot of choice. This guide helps you pick the package that fits what you actually want to achieve, and avoid spending money on numbers that will not help.</p>
<h2>Start with the goal, not the number</h2>
<p>Ask yourself what you want a visitor to think when they land on your profile or post.</p>
<ul>
<li><strong>"This account is established."</strong> Followers or subscribers add social proof to a profile. They do not interact with your posts.</li>
<li><strong>"This post is worth a look."</strong> Likes or views on a specific post or video help it look less empty to the first real visitors.</li>
<li><strong>"People are talking about this."</strong> Custom comments, with text you write, can start a conversation under a post; write them in your audience's voice.</li>
</ul>
<p>If your real goal is sales or sign-ups, remember that no package delivers customers. A boost can make a profile more convincing, but the content, the offer and the link in your bio do the selling.</p>
<h2>Standard, Popular or Exclusive</h2>
<p>Each service comes in three plans. The plan cards list exactly what each one includes; the main differences are the quality of the delivering profiles, how fast an order starts and whether a refill is included. Read the list on the card before you order: if something is not listed there, it is not part of that plan.</p>
<h2>Choosing a size</h2>
<ul>
<li>Match the size to the account. A profile with 300 followers that suddenly shows 10,000 looks odd to anyone paying attention. Growing in steps is more believable.</li>
<li>For likes and views, think about your usual numbers. A post with far more likes than your other posts stands out.</li>
<li>Larger sizes have bigger discounts per unit, but a smaller order you can repeat later is often the better buy.</li>
</ul>
<h2>Before you order</h2>
<ul>
<li>Make sure the profile is public for the whole delivery; private profiles cannot receive an order.</li>
<li>Enter the username without the @, or paste the full link to the post or video.</li>
<li>Do not change your username or delete the post while an order is running.</li>
<li>Avoid running two orders for the same target at the same time, so you can see what each one delivered.</li>
</ul>
<h2>What we promise, and what we do not</h2>
<p>We never ask for your password. Delivery is gradual rather than instant. Follower orders include a 30-day refill if the count drops, and if we cannot deliver an order it is refunded in full. We cannot promise that anyone will engage with your content, and we cannot control what a platform decides to remove; anyone who claims otherwise is overselling.</p>
<p>If you are unsure which package suits you, contact support before ordering. We would rather help you pick a small package that fits than sell you a big one that does not.</p>
`,
    },
  ],
};
